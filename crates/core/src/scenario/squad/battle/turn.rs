//! The turn (Ch. 4): the trial's loop of player turns, what happens at the start of a side's
//! turn, each unit's turn (act, move or strike), and the outcome.

use super::hooks::Flow;
use super::*;
use crate::dice::{Faces, Log};
use crate::rules::{OpeningResponse, ResponseOrder};
use crate::scenario::Scenario;
use crate::scenario::duel::Side;
use crate::scenario::squad::{Position, Sprint, SquadOutcome, SquadTally};
use crate::sim::Estimate;

/// Where a unit walks ([`Squad::plan_walk`]): its way's length to its nearest enemy
/// (half-inches), where it walks to, how far would take it into reach (`closing`), how
/// far it wants to go, and whether it rushes an objective rather than the enemy.
struct Walk {
    d: i32,
    goal: Spot,
    closing: i32,
    want: i32,
    rush: bool,
}

impl Squad {
    /// Unit `i`'s turn, in the general trial (for tests that drive one turn).
    #[cfg(test)]
    pub(super) fn act<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        self.act_as::<false, F, L>(fl, i, faces, log)
    }

    /// Unit `i`'s turn; `P`: a plain battle ([`Squad::plain`]), so the creature rules'
    /// branches compile away. Called from one place (the trial's loop): with a second
    /// caller LLVM stops inlining it and every squad duel runs slower.
    #[inline]
    pub(super) fn act_as<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        faces: &mut F,
        log: &mut L,
    ) {
        let may_act = if !P && self.hooks.unit_turn {
            match self.unit_turn(fl, i, faces, log) {
                Flow::Over => return,
                Flow::Act => true,
                Flow::Walk => false,
            }
        } else if fl.f[i].disrupted {
            return;
        } else {
            true
        };
        if !P && self.any_throw {
            self.pick_up(fl, i, log);
        }
        let side = fl.f[i].side as usize;
        let k = &self.kinds[fl.f[i].kind as usize];
        if fl.f[i].recovering && k.heavy_armor {
            // Ch. 4.1: "Unless they have assistance, Heavy Armored minifigs use up a full
            // turn's worth of Movement and Action to recover from being Disrupted."
            fl.f[i].acted = true;
            return log.note(format_args!(
                "  {} spends its turn standing up in Heavy Armor",
                Who(self, fl, i)
            ));
        }
        let hold = self.policy[side].position == Position::Hold;
        // One scan for both questions: nothing moves between them.
        let near = self.nearest_as::<P>(fl, i);
        // On a table the nearest may stand behind a wall: it engages only a target it
        // can strike from here.
        let engage = may_act
            && self.in_reach(fl, i, near)
            && (P || self.board.is_none() || self.any_target(fl, i));
        if engage {
            // The scan answers whether it stands in contact, unless it steps back first.
            let contact = if hold && k.reach().is_some() {
                // The scan above, reused: nothing has moved since.
                self.keep_range(fl, i, near, log);
                None
            } else {
                near.map(|(d, _)| d <= CONTACT)
            };
            let a = self.attack_turn::<P, F, L>(fl, i, contact, faces, log);
            fl.f[i].acted |= a;
            return;
        }
        let Some((d, t)) = near else {
            return;
        };
        let Walk {
            d,
            goal,
            closing,
            want,
            rush,
        } = self.plan_walk::<P>(fl, i, t, d, hold, may_act);
        let (mut step, may_sprint) = if !P && self.hooks.walk {
            self.walk(fl, i, want, faces, log)
        } else {
            (k.move_halves, true)
        };
        step = self.at_speed(fl, i, step);
        // A holding unit never Sprints: it stops short of the enemy on purpose.
        let sprints = self.policy[side].sprint == Sprint::Close
            && step < want
            && want == closing
            && !rush
            && may_sprint;
        if sprints {
            step += self.sprint(fl, i, want - step, faces, log);
        }
        let moved = step.min(want);
        let from = fl.at(i);
        let walked = self.walk_on(fl, i, goal, moved, log);
        fl.moved(fl.f[i].side);
        if !P && self.any_throw {
            self.pick_up(fl, i, log);
        }
        if !P && self.any_crew && k.team >= 2 {
            self.carry(fl, i, from, log);
        }
        // Issue 40: only a Sprint is narrated as one (a reload also spends the Action).
        self.say_walk(fl, i, (d, t), (moved, walked), sprints, log);
        // It takes its own Action now only if it ended its walk in reach of an enemy; that
        // matters only when a Response may not come first (the scan is skipped otherwise).
        let acting = may_act
            && !fl.f[i].acted
            && self.opts.response_order != ResponseOrder::Counter
            && self.can_attack_as::<P>(fl, i);
        let r = self.respond::<P, F, L>(fl, i, from, acting, faces, log);
        self.after_walk::<P, F, L>(fl, i, may_act, faces, log);
        if r.together {
            self.settle(fl);
        }
        if r.late != 0 {
            self.late_responses(fl, i, r.late, faces, log);
        }
    }

    /// Where unit `i`, which strikes no one from where it stands, walks this turn: toward
    /// its nearest enemy `t`, `d` half-inches off, to stop at its reach (under the `hold`
    /// policy, as [`Squad::hold_want`] has it); on a table by its way, or to the centre it
    /// rushes ([`Squad::on_board`]).
    #[inline(always)]
    fn plan_walk<const P: bool>(
        &self,
        fl: &Field,
        i: usize,
        t: usize,
        d: i32,
        hold: bool,
        may_act: bool,
    ) -> Walk {
        let k = &self.kinds[fl.f[i].kind as usize];
        let stop = if !P && self.any_explosive {
            self.stand_off(fl, i)
        } else {
            self.stop_at(k)
        };
        let (mut w, mut stop, mut rush) = (
            Walk {
                d,
                goal: fl.at(t),
                closing: 0,
                want: 0,
                rush: false,
            },
            stop,
            None,
        );
        if !P && self.board.is_some() {
            (w.d, stop, rush) = self.on_board(fl, i, t, stop);
        }
        w.closing = (w.d - stop).max(0);
        w.want = if let Some((spot, walk)) = rush {
            (w.goal, w.rush) = (spot, true);
            walk
        } else if hold {
            self.hold_want(fl, i, t, w.d, w.closing, may_act)
        } else {
            w.closing
        };
        w
    }

    /// The rest of unit `i`'s turn after its walk and the Responses to it: an Effect or an
    /// attack, if it may still act.
    #[inline(always)]
    fn after_walk<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        i: usize,
        may_act: bool,
        faces: &mut F,
        log: &mut L,
    ) {
        if !may_act || !fl.f[i].alive || fl.f[i].disrupted || fl.f[i].acted || self.over(fl) {
            return;
        }
        if !P
            && self.hooks.unit_turn
            && let Some(acted) = self.unit_turn_after_walk(fl, i, faces, log)
        {
            fl.f[i].acted |= acted;
            return;
        }
        let near = self.nearest_as::<P>(fl, i);
        if self.in_reach(fl, i, near) && (P || self.board.is_none() || self.any_target(fl, i)) {
            let contact = near.map(|(d, _)| d <= CONTACT);
            let a = self.attack_turn::<P, F, L>(fl, i, contact, faces, log);
            fl.f[i].acted |= a;
        } else if !P && self.any_throw {
            fl.f[i].acted |= self.throw(fl, i, faces, log);
        }
    }

    /// Fills `fl` for the first turn: each side on its starting line. It fills the field
    /// in place: returning the 8 KB field instead copied it every trial (+16% instructions).
    #[inline(always)]
    pub(super) fn place(&self, fl: &mut Field) {
        for (n, (slot, &(side, kind))) in fl.f.iter_mut().zip(&self.roster).enumerate() {
            *slot = Figure {
                kind,
                side,
                // The slots after the fielded units wait for 4pions.
                alive: n < self.units,
                pos: self.start[n] as f32,
                size: self.kinds[kind as usize].size,
                // Before its first turn a unit has taken no Action (option `opening_response`).
                saved: self.opts.opening_response == OpeningResponse::Ready,
                ..EMPTY
            };
        }
        for (l, &x) in fl.lat.iter_mut().zip(&self.lateral) {
            *l = (2.0 * x) as f32;
        }
        fl.flat = self.flat;
        if self.board.is_some() {
            // Each side faces the other's edge until its first turn ends.
            for (h, &(side, _)) in fl.face.iter_mut().zip(&self.roster) {
                *h = (if side == 0 { 1.0 } else { -1.0 }, 0.0);
            }
        }
        if self.any_throw {
            fl.thrown[..self.roster.len()].fill(0);
        }
        if self.any_sn {
            fl.hex[..self.roster.len()].fill(hexes::Hex::NONE);
        }
        if self.any_crew {
            fl.homing[..self.roster.len()].fill(gunnery::Homing::NONE);
        }
    }

    /// The field before the first turn (for tests).
    #[cfg(test)]
    pub(super) fn start(&self) -> Box<Field> {
        let mut fl = Box::new(Field::new([self.count[0] as u32, self.count[1] as u32]));
        self.place(&mut fl);
        fl
    }

    /// Records the standing units and conversions after player turn `turn`.
    pub(super) fn record_turn(&self, fl: &mut Field, turn: u32) {
        if let Some(k) = (turn as usize).checked_sub(1).filter(|&k| k < TRACK) {
            fl.standing[0][k] = fl.alive[0] as u8;
            fl.standing[1][k] = fl.alive[1] as u8;
            fl.converted_by[k] = fl.converted as u8;
        }
    }

    pub(super) fn over(&self, fl: &Field) -> bool {
        fl.alive[0] == 0 || fl.alive[1] == 0
    }

    pub(super) fn outcome(&self, fl: &mut Field, first: Side, turns: u32) -> SquadOutcome {
        let winner = match (fl.alive[0], fl.alive[1]) {
            _ if fl.won != 0 => Some(if fl.won == 1 { Side::A } else { Side::B }),
            (0, 0) => None,
            (_, 0) => Some(Side::A),
            (0, _) => Some(Side::B),
            _ => None,
        };
        let mut cp_left = [0i64; 2];
        for f in fl.f.iter().take(self.roster.len()) {
            if f.alive {
                cp_left[f.side as usize] += self.kinds[f.kind as usize].cp.in_quarters();
            }
        }
        SquadOutcome {
            winner,
            first,
            turns,
            survivors: fl.alive,
            cp_left,
            ties: fl.ties,
            converted: fl.converted,
            revived: fl.revived,
            blasted: fl.blasted,
            blasted_own: fl.blasted_own,
            swept: fl.swept,
            standing: fl.standing,
            converted_by: fl.converted_by,
        }
    }
}

impl Scenario for Squad {
    type Outcome = SquadOutcome;
    type Tally = SquadTally;

    fn trial<F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        // The trial's form is chosen once per battle (issue 27); all play the same rules.
        if !L::NOTES
            && let Some(line) = &self.line
        {
            return line.fight(self, faces, log);
        }
        if self.plain {
            self.battle::<true, F, L>(faces, log)
        } else {
            self.battle::<false, F, L>(faces, log)
        }
    }

    fn key(&self, t: &SquadTally) -> Estimate {
        Estimate::proportion(t.a_wins, t.trials, crate::sim::CONFIDENCE)
    }
}

impl Squad {
    /// One battle, turn by turn; `P`: a plain battle ([`Squad::plain`]).
    #[inline(always)]
    fn battle<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        super::FIELD.with(|cell| {
            let alive = [self.count[0] as u32, self.count[1] as u32];
            // A trial never runs inside another, so the thread's field is free; were it
            // not, a fresh one would do the same.
            let mut own;
            let mut reused = cell.try_borrow_mut().ok();
            let fl: &mut Field = match reused.as_deref_mut() {
                Some(r) => {
                    r.field.clear(alive);
                    // Slots past this roster go back to empty, as a fresh field has them.
                    let n = self.roster.len();
                    if r.written > n {
                        r.field.f[n..r.written].fill(EMPTY);
                    }
                    r.written = n;
                    &mut r.field
                }
                None => {
                    own = Field::new(alive);
                    &mut own
                }
            };
            self.place(fl);
            self.fight::<P, F, L>(fl, faces, log)
        })
    }

    /// The start of `side`'s player turn: the turn's counts start afresh for every unit
    /// (and its stack of Explosive Damage), the rest for the side's own.
    #[inline(always)]
    pub(super) fn new_turn<const P: bool>(&self, fl: &mut Field, side: u8) {
        // The turn's counts start afresh for every unit; the rest for the side's own.
        // Where no unit changes sides, those are the side's range: a check of each
        // unit's side mispredicted as sides alternate.
        let mine = if !P && self.sides_move {
            0..self.roster.len()
        } else {
            self.own(side)
        };
        for f in fl.f.iter_mut().take(self.roster.len()) {
            f.engaged = 0;
            f.targeted = 0;
            f.combined = Pool::EMPTY;
            f.used = 0;
            f.power_used = 0;
            f.hands_used = 0;
        }
        if !P && self.stacks {
            self.new_stack(fl);
        }
        if !P && self.any_throw {
            // A thrown weapon stays gone (Ch. 8.4).
            for (f, &gone) in fl.f.iter_mut().zip(&fl.thrown).take(self.roster.len()) {
                f.used = gone;
            }
        }
        if !P && self.any_divert {
            self.new_turn_power(fl, side, mine.clone());
        }
        for f in &mut fl.f[mine] {
            if f.side == side {
                // Spent SN dice return at the beginning of their owner's turn (Ch. D.3).
                f.spent = 0;
                f.spawned = false;
                // Disruption lasts "until his following turn" (Ch. 4.1); a saved Action
                // not spent in the enemy's turn is gone.
                f.recovering = f.disrupted;
                f.disrupted = false;
                f.saved = false;
                f.acted = false;
            }
        }
    }

    /// The battle on a field placed for its first turn.
    #[inline(always)]
    fn fight<const P: bool, F: Faces + ?Sized, L: Log + ?Sized>(
        &self,
        fl: &mut Field,
        faces: &mut F,
        log: &mut L,
    ) -> SquadOutcome {
        let first = self.first.resolve(faces);
        log.note(format_args!("{first:?} goes first"));
        let mut side: u8 = if first == Side::A { 0 } else { 1 };
        for turn in 1..=self.max_turns {
            log.note(format_args!(
                "turn {turn}: side {}",
                if side == 0 { 'A' } else { 'B' }
            ));
            if L::NOTES {
                self.picture(fl, Some((turn, side)), log);
            }
            self.new_turn::<P>(fl, side);
            let (taken, lent_here) = if !P && self.hooks.turn_start {
                let t = self.turn_start(fl, side, faces, log);
                // A shell coming down may end the battle before any unit moves.
                if self.any_lob && self.over(fl) {
                    if fl.primed != 0 {
                        self.primed_go_off(fl, faces, log);
                    }
                    self.record_turn(fl, turn);
                    return self.outcome(fl, first, turn);
                }
                t
            } else {
                (None, 0)
            };
            // The unit the enemy plays against its own side goes first, if any; then the
            // side's units in roster order (one call site keeps `act` inlined). Without
            // Contagion or Stupidity no unit changes sides: the side's own range will do.
            let slots = if !P && self.sides_move {
                0..self.roster.len()
            } else {
                self.own(side)
            };
            // Units of the other side this side plays this turn: the Stupid one taken from
            // this side (it plays for the enemy) and useless Half Minds lent by the enemy.
            let mut lent: u128 = match taken {
                Some((u, true)) => 1 << u,
                _ => 0,
            };
            lent |= lent_here;
            let n_lent = lent.count_ones() as usize;
            // The lent units (lowest slot first), then the side's range: one loop by index,
            // not a chained iterator. The plain form lends none, and visits the side's units
            // standing as the turn starts (none rises in it), each tested below as ever.
            let mut up = if P { self.front(fl, side).up } else { 0 };
            let mut k = 0;
            loop {
                let (i, for_enemy) = if P {
                    match next_standing(&mut up, slots.start) {
                        Some(i) => (i, false),
                        None => break,
                    }
                } else {
                    if k == n_lent + slots.len() {
                        break;
                    }
                    k += 1;
                    if k <= n_lent {
                        let u = lent.trailing_zeros() as usize;
                        lent &= lent - 1;
                        (u, true)
                    } else {
                        (slots.start + k - 1 - n_lent, false)
                    }
                };
                if !for_enemy
                    && (fl.f[i].side != side
                        || !fl.f[i].alive
                        || taken.is_some_and(|(u, _)| u == i))
                {
                    continue;
                }
                self.act_as::<P, F, L>(fl, i, faces, log);
                self.after_act::<P, L>(fl, i, log);
                if !P && self.hooks.unit_end {
                    self.unit_end(fl, faces, log);
                }
                if for_enemy {
                    let home = 1 - fl.f[i].side;
                    self.release(fl, i, home);
                }
                if self.over(fl) {
                    if fl.primed != 0 {
                        self.primed_go_off(fl, faces, log);
                    }
                    self.record_turn(fl, turn);
                    return self.outcome(fl, first, turn);
                }
            }
            if fl.primed != 0 {
                self.primed_go_off(fl, faces, log);
                if self.over(fl) {
                    self.record_turn(fl, turn);
                    return self.outcome(fl, first, turn);
                }
            }
            for i in slots {
                let f = &mut fl.f[i];
                if f.side == side {
                    f.saved = f.alive & !f.acted;
                    // "the Master must use the Benny before the end of his turn".
                    f.benny = 0;
                }
            }
            self.record_turn(fl, turn);
            if !P && self.board.is_some() && self.holds(fl, side, log) {
                return self.outcome(fl, first, turn);
            }
            side = 1 - side;
        }
        self.outcome(fl, first, self.max_turns)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn a_plain_battle_plays_the_general_trial_draw_for_draw() {
        // Issue 27: the plain form drops only branches a plain battle never takes. Each
        // battle here is plain; forced through the general form, every tally is the same.
        use crate::scenario::squad::{Formation, Response, Targeting};
        use crate::sim::engine::Engine;
        use crate::sim::progress::Silent;
        let run = |s: &Squad| Engine::tally_of(s, 9, 0, 4_000, &Silent);
        let base = RuleOptions::default();
        let mut timing = base;
        timing.assign("response_order=timing").unwrap();
        let mut roll_off = base;
        roll_off.assign("response_order=roll_off").unwrap();
        let mut tie = base;
        tie.assign("armor_tie=dismemberment").unwrap();
        let mut saved = base;
        saved.assign("parry=saved").unwrap();
        let spread = Policy {
            target: Targeting::Spread,
            response: Response::Close,
            sprint: Sprint::Close,
            position: Position::Advance,
            formation: Formation::parse("ranks:2").unwrap(),
            ..Policy::default()
        };
        type Units<'a> = &'a [(&'a str, u32)];
        let cases: [(Units, Units, Policy, RuleOptions); 9] = [
            (
                &[("minifig-hand-weapon", 6)],
                &[("minifig-hand-weapon", 6)],
                Policy::default(),
                base,
            ),
            (
                &[("minifig-pistol", 4)],
                &[("minifig-two-handed", 4)],
                Policy::default(),
                timing,
            ),
            (
                &[("minifig-rifle", 3)],
                &[("minifig-sword-shield", 5)],
                Policy::default(),
                saved,
            ),
            (
                &[("hero-hand-weapon", 2)],
                &[("minifig-heavy-weapon", 5)],
                spread,
                roll_off,
            ),
            (
                &[("minifig-hand-weapon+heavy-armor", 4)],
                &[("hero-hand-weapon", 1), ("minifig-hand-weapon", 3)],
                spread,
                tie,
            ),
            (
                &[("automaton", 1)],
                &[("minifig-hand-weapon", 6)],
                Policy::default(),
                base,
            ),
            (&[("horse", 2)], &[("minifig-pistol", 3)], spread, timing),
            // Vermin and Cannon Fodder rules are the kinds' own, kept in the plain form.
            (
                &[("vermin", 8)],
                &[("minifig-hand-weapon", 2)],
                Policy::default(),
                base,
            ),
            (
                &[("cannon-fodder", 5)],
                &[("minifig-pistol", 3)],
                spread,
                base,
            ),
        ];
        for (a, b, p, o) in cases {
            let s = Squad::new(side(a, &o), side_with(b, p, &o), 10, First::Random, 60, o).unwrap();
            assert!(s.plain, "{a:?} v {b:?} is a plain battle");
            // Issue 42: every form but the one built switched off, so the general turn
            // plays (the line form, where it qualifies, has its own test in line/mod.rs).
            let forms = forms(&s);
            assert!(forms.iter().any(|(name, _)| *name == "general"));
            let t = run(&s);
            for (name, f) in &forms {
                assert_eq!(&run(f), &t, "{a:?} v {b:?}, the {name} form");
            }
            assert!(t.trials == 4_000 && t.a_wins + t.b_wins > 0);
        }
        // SN dice, area and automatic weapons, Mediks take the general form.
        for k in [
            "wizard",
            "minifig-launcher",
            "minifig-machinegunner",
            "medik+hand-weapon",
        ] {
            let s = squad(&[(k, 2)], &[MF], 8, RuleOptions::default());
            assert!(!s.plain, "{k}");
        }
    }

    #[test]
    fn a_reused_field_plays_as_a_fresh_one() {
        // Issue 27: a thread's trials share one field. Cleared, it is a new field; and a
        // small battle after a larger one on the same thread (its slots past the small
        // roster written) tallies as on a thread of its own.
        let mut used = Field::new([3, 4]);
        used.f[5].pos = 9.0;
        used.ties = 7;
        used.primed = 1 << 3;
        used.standing[1][2] = 4;
        used.moved(0);
        used.clear([2, 5]);
        used.f[5] = EMPTY;
        assert_eq!(format!("{used:?}"), format!("{:?}", Field::new([2, 5])));
        // Trials run here on the spawned threads themselves, not on a pool.
        let play = |s: &Squad, n: usize| {
            let mut rng = crate::sim::stream(3, 0, 0);
            (0..n)
                .map(|_| format!("{:?}", s.trial(&mut rng, &mut NoLog)))
                .collect::<Vec<_>>()
        };
        let o = RuleOptions::default();
        let small = squad(&[MF], &[("minifig-pistol", 2)], 6, o);
        let large = squad(&[("hero-hand-weapon", 9)], &[("minifig-rifle", 9)], 6, o);
        let (s1, s2) = (small.clone(), small);
        let fresh = std::thread::spawn(move || play(&s1, 300)).join().unwrap();
        let after = std::thread::spawn(move || {
            play(&large, 20);
            play(&s2, 300)
        })
        .join()
        .unwrap();
        assert_eq!(after, fresh);
        // With the thread's field busy (a trial inside a trial, which nothing does), a
        // fresh field plays instead: the same outcomes.
        let s3 = squad(&[MF], &[("minifig-pistol", 2)], 6, o);
        let busy = std::thread::spawn(move || {
            super::super::FIELD.with(|cell| {
                let _held = cell.borrow_mut();
                play(&s3, 300)
            })
        })
        .join()
        .unwrap();
        assert_eq!(busy, fresh);
        assert!(fresh.iter().any(|o| o.contains("winner: Some(A)")));
        assert!(fresh.iter().any(|o| o.contains("winner: Some(B)")));
    }

    #[test]
    fn a_rear_rank_starts_behind_its_line() {
        // B in two ranks 1.5" apart: its third and fourth units stand 1.5" (3 half-inches)
        // behind B's line, 12" off; A stands abreast on its own.
        let o = RuleOptions::default();
        let ranks = Policy {
            formation: crate::scenario::squad::Formation::parse("ranks:2").unwrap(),
            ..Policy::default()
        };
        let b = side_with(&[("minifig-hand-weapon", 4)], ranks, &o);
        let s = Squad::new(
            side(&[("minifig-hand-weapon", 2)], &o),
            b,
            12,
            First::A,
            50,
            o,
        )
        .unwrap();
        let fl = s.start();
        let pos: Vec<i32> = fl.f[..6].iter().map(|f| f.pos as i32).collect();
        assert_eq!(pos, [0, 0, 24, 24, 27, 27]);
    }

    #[test]
    fn in_contact_they_trade_blows_like_the_duel() {
        let s = squad(&[MF], &[MF], 0, RuleOptions::default());
        // A misses (1, Critical Failure); B hits (3 vs Use 2), Damage 4 ties Armor 4; A hits,
        // Damage 5 > 4: B dies on turn 3.
        let o = run(&s, &[(D6, 1), (D6, 3), (D6, 4), (D6, 2), (D6, 5)]);
        assert_eq!(o.winner, Some(Side::A));
        assert_eq!((o.turns, o.ties), (3, 1));
        assert_eq!(o.survivors, [1, 0]);
        assert_eq!(o.cp_left, [24, 0], "6 CP in quarters");
    }
}
