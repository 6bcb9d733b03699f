//! What a battle's map draws (issue 43): typed events a battle passes to its [`Log`] as it
//! narrates, in the table's inches. A log that keeps notes may keep them
//! ([`Log::scene`]); the trial loop builds none otherwise (`Log::NOTES` is false).
//!
//! [`Log`]: super::Log
//! [`Log::scene`]: super::Log::scene

/// A place on the table: inches across it and along it from side A's edge.
pub type At = (f64, f64);

/// One thing a map draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Scene {
    /// A player turn begins: `side` 0 (A) or 1 (B).
    Turn {
        /// The player turn, from 1.
        turn: u32,
        /// Whose.
        side: u8,
    },
    /// Where a figure stands now, and whether it stands at all (after each unit's turn
    /// and before the first).
    Stand {
        /// Its slot (side A's first).
        slot: u16,
        /// Its side (0: A).
        side: u8,
        /// Where.
        at: At,
        /// Still standing.
        alive: bool,
    },
    /// A figure's walk: where it set out, each corner it turned at, where it stopped.
    Walk {
        /// Its slot.
        slot: u16,
        /// The way walked.
        path: Vec<At>,
    },
    /// An attack: Close Combat or a shot, and whether it hit.
    Attack {
        /// The attacker's slot.
        from: u16,
        /// The target's slot.
        to: u16,
        /// It hit.
        hit: bool,
    },
    /// An Explosion bursting at `at`, its rings reaching `inches`.
    Blast {
        /// Where it burst.
        at: At,
        /// How far its rings reach.
        inches: f64,
    },
}
