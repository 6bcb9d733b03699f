//! The parser: text in the notation of the rule texts to a validated [`Expr`].
//!
//! Grammar (whitespace anywhere between tokens, none inside `2d10`):
//! ```text
//! expr  := [+|-] term ((+|-) term)*
//! term  := number | dice tag* | "sn" dice
//! dice  := [count] "d" sides                    count 1..=1000, sides 4|6|8|10|12|20
//! tag   := exp | fire | blast | pierce | phased | skill | (bless|curse) [dice]
//! ```
//! Errors carry the 1-based column and width of the offending text, what was expected, what
//! was found and a hint that cites the rule, so the CLI can point at it with a caret.

use std::fmt;

use super::{Expr, Term, TermKind};
use crate::dice::damage::DamageType;
use crate::dice::die::Die;
use crate::dice::skill::{SkillError, SkillRoll};
use crate::dice::supernatural::SnRoll;

/// Most dice one term may roll: enough for any table, small enough for exact maths.
pub const MAX_DICE: u32 = 1000;
/// Largest constant accepted, so totals can never overflow.
pub const MAX_CONST: i64 = 1_000_000;
/// Most terms in one expression.
pub const MAX_TERMS: usize = 100;

/// A dice expression that does not parse or breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based character column of the offending text.
    pub column: usize,
    /// Its width in characters (at least 1).
    pub width: usize,
    /// What the parser expected there.
    pub expected: String,
    /// What it found.
    pub found: String,
    /// How to write it instead, if there is a likely fix.
    pub hint: Option<String>,
}

impl ParseError {
    /// The message with the expression and a caret under the offending text:
    /// `name:1:COL: expected ..., found ...`.
    pub fn render(&self, name: &str, text: &str) -> String {
        let mut s = format!(
            "{name}:1:{}: expected {}, found {}\n  {text}\n  {}{}",
            self.column,
            self.expected,
            self.found,
            " ".repeat(self.column - 1),
            "^".repeat(self.width.max(1)),
        );
        if let Some(h) = &self.hint {
            s.push_str("\nhint: ");
            s.push_str(h);
        }
        s
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: expected {}, found {}",
            self.column, self.expected, self.found
        )?;
        if let Some(h) = &self.hint {
            write!(f, " (hint: {h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(u64),
    Word(String),
    Plus,
    Minus,
    End,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    /// 0-based char index and width.
    start: usize,
    width: usize,
    /// As typed, so a number past what u64 holds is quoted as the user wrote it.
    text: String,
}

impl Token {
    fn shown(&self) -> String {
        match &self.tok {
            Tok::Num(_) => format!("\"{}\"", self.text),
            Tok::Word(w) => format!("\"{w}\""),
            Tok::Plus => "\"+\"".into(),
            Tok::Minus => "\"-\"".into(),
            Tok::End => "the end of the expression".into(),
        }
    }
    fn end(&self) -> usize {
        self.start + self.width
    }
}

fn err(at: &Token, expected: &str, hint: Option<String>) -> ParseError {
    ParseError {
        column: at.start + 1,
        width: at.width.max(1),
        expected: expected.into(),
        found: at.shown(),
        hint,
    }
}

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            // More than u64 holds is "too big" either way; the caller range-checks.
            Tok::Num(digits.parse().unwrap_or(u64::MAX))
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphabetic() || chars[i] == '_') {
                i += 1;
            }
            Tok::Word(chars[start..i].iter().collect::<String>().to_lowercase())
        } else if c == '+' {
            i += 1;
            Tok::Plus
        } else if c == '-' || c == '\u{2212}' {
            i += 1;
            Tok::Minus
        } else {
            return Err(ParseError {
                column: start + 1,
                width: 1,
                expected: "a dice term, a number, + or -".into(),
                found: format!("{c:?}"),
                hint: (c == '(' || c == ')').then(|| {
                    "write damage types as plain words: `3d10 exp`, not `3d10 (exp)`".into()
                }),
            });
        };
        out.push(Token {
            tok,
            start,
            width: i - start,
            text: chars[start..i].iter().collect(),
        });
    }
    out.push(Token {
        tok: Tok::End,
        start: chars.len(),
        width: 1,
        text: String::new(),
    });
    Ok(out)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
}

const TERM: &str = "a dice term like 1d6, a number, or `sn d8`";
const DIE_SIZES: &str = "a die size: 4, 6, 8, 10, 12 or 20";

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.at.min(self.toks.len() - 1)]
    }
    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.at < self.toks.len() - 1 {
            self.at += 1;
        }
        t
    }

    fn expr(&mut self) -> Result<Vec<(Term, Token)>, ParseError> {
        let mut terms = Vec::new();
        let mut negative = match self.peek().tok {
            Tok::Minus => {
                self.next();
                true
            }
            Tok::Plus => {
                self.next();
                false
            }
            _ => false,
        };
        loop {
            let first = self.peek().clone();
            let kind = self.term()?;
            if terms.len() >= MAX_TERMS {
                return Err(err(&first, &format!("at most {MAX_TERMS} terms"), None));
            }
            terms.push((Term { negative, kind }, first));
            let t = self.next();
            negative = match t.tok {
                Tok::Plus => false,
                Tok::Minus => true,
                Tok::End => return Ok(terms),
                Tok::Word(_) => {
                    return Err(err(
                        &t,
                        "+, - or a tag (exp, fire, blast, pierce, phased, poison, skill, bless, curse)",
                        Some("tags follow dice directly: `3d10 exp`, `d6 skill bless d8`".into()),
                    ));
                }
                Tok::Num(_) => {
                    return Err(err(
                        &t,
                        "+ or - between terms",
                        Some("join terms with + or -: `1d6 + 1`".into()),
                    ));
                }
            };
        }
    }

    /// `[count] d sides`, with `count` already read if given. Returns (count, die).
    fn dice_after(&mut self, count: Option<(u64, Token)>) -> Result<(u32, Die), ParseError> {
        let d = self.next();
        if d.tok != Tok::Word("d".into()) {
            let hint = match &d.tok {
                Tok::Word(w) if w.starts_with('d') => Some(format!(
                    "a die is `d` and a size with nothing between: d6, 2d10 (not {w})"
                )),
                _ => None,
            };
            return Err(err(&d, "a die like d6", hint));
        }
        if let Some((_, c)) = &count
            && c.end() != d.start
        {
            return Err(err(
                &d,
                "the die right after its count",
                Some("write 2d6, with no space".into()),
            ));
        }
        let s = self.next();
        let Tok::Num(sides) = s.tok else {
            return Err(err(&s, DIE_SIZES, None));
        };
        if s.start != d.end() {
            return Err(err(&s, "the size right after `d`", Some("write d6".into())));
        }
        let die = u32::try_from(sides)
            .ok()
            .and_then(Die::from_sides)
            .ok_or_else(|| {
                err(
                    &s,
                    DIE_SIZES,
                    Some(
                        "BrikWars rolls d4, d6, d8, d10 and d12; the d20 is BrikThulhu's (Ch. D.1)"
                            .into(),
                    ),
                )
            })?;
        let n = match count {
            None => 1,
            Some((n, tok)) => {
                if n == 0 || n > MAX_DICE as u64 {
                    return Err(err(&tok, &format!("1 to {MAX_DICE} dice"), None));
                }
                n as u32
            }
        };
        Ok((n, die))
    }

    fn term(&mut self) -> Result<TermKind, ParseError> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Num(n) => {
                let n = *n;
                self.next();
                if self.peek().tok == Tok::Word("d".into()) && self.peek().start == t.end() {
                    let dice = self.dice_after(Some((n, t.clone())))?;
                    self.tags(dice, &t)
                } else if self.peek().tok == Tok::Word("d".into()) {
                    Err(err(
                        self.peek(),
                        "+ or - between terms",
                        Some("write 2d6, with no space".into()),
                    ))
                } else if n > MAX_CONST as u64 {
                    Err(err(&t, &format!("a number up to {MAX_CONST}"), None))
                } else {
                    Ok(TermKind::Const(n as i64))
                }
            }
            Tok::Word(w) if w == "d" => {
                let dice = self.dice_after(None)?;
                self.tags(dice, &t)
            }
            Tok::Word(w) if w == "sn" => {
                self.next();
                let c = self.peek().clone();
                let count = match c.tok {
                    Tok::Num(n) => {
                        self.next();
                        Some((n, c))
                    }
                    _ => None,
                };
                let (count, die) = self.dice_after(count)?;
                if let Tok::Word(w) = &self.peek().tok
                    && is_tag(w)
                {
                    return Err(err(
                        self.peek(),
                        "+, - or the end after SuperNatural dice",
                        Some("SuperNatural dice take no tags (Ch. D.3)".into()),
                    ));
                }
                Ok(TermKind::Sn(SnRoll { count, die }))
            }
            Tok::Word(w) if w.starts_with('d') && w.len() > 1 => Err(err(
                &t,
                TERM,
                Some("a die is `d` and a size: d6, 2d10".into()),
            )),
            Tok::Word(w) if is_tag(w) => Err(err(
                &t,
                TERM,
                Some(format!(
                    "`{w}` is a tag: put it after the dice, as in `3d10 exp`"
                )),
            )),
            _ => Err(err(&t, TERM, None)),
        }
    }

    /// Reads the tags after `count d die`.
    fn tags(&mut self, (count, die): (u32, Die), first: &Token) -> Result<TermKind, ParseError> {
        let mut kind = DamageType::Plain;
        let mut kind_tok: Option<Token> = None;
        let mut skill: Option<Token> = None;
        // (bless?, count, carrier, the word's token, the count's token)
        let mut blessings: Vec<(bool, u32, Option<Die>, Token, Token)> = Vec::new();
        loop {
            let t = self.peek().clone();
            let Tok::Word(w) = &t.tok else { break };
            if let Some(&(_, ty)) = DamageType::TAGS.iter().find(|(s, _)| s == w) {
                self.next();
                if kind_tok.is_some() {
                    return Err(err(&t, "one damage type per term", None));
                }
                kind = ty;
                kind_tok = Some(t);
            } else if w == "skill" {
                self.next();
                if skill.is_some() {
                    return Err(err(&t, "`skill` once", None));
                }
                skill = Some(t);
            } else if w == "bless" || w == "curse" {
                self.next();
                let bless = w == "bless";
                // Optional carrier: `bless d8`, `bless 2d8`.
                let p = self.peek().clone();
                let (n, carrier, count_tok) = match p.tok {
                    Tok::Word(ref d) if d == "d" => {
                        let (n, die) = self.dice_after(None)?;
                        (n, Some(die), p.clone())
                    }
                    Tok::Num(n) => {
                        self.next();
                        let (n, die) = self.dice_after(Some((n, p.clone())))?;
                        (n, Some(die), p.clone())
                    }
                    _ => (1, None, t.clone()),
                };
                blessings.push((bless, n, carrier, t, count_tok));
            } else {
                break;
            }
        }
        if let Some(s) = skill {
            if count != 1 {
                return Err(err(
                    first,
                    "a single Skill die",
                    Some(format!(
                        "a Skill rating is always one die with no modifiers (Ch. 10.1): write `{die} skill`"
                    )),
                ));
            }
            if let Some(k) = kind_tok {
                return Err(err(
                    &k,
                    "no damage type on a Skill die",
                    Some("put the Skill die and the Damage in separate rolls".into()),
                ));
            }
            let _ = s;
            let mut roll = SkillRoll::new(die);
            for (bless, n, carrier, t, count_tok) in blessings {
                let r = if bless {
                    roll.blessed(n, carrier)
                } else {
                    roll.cursed(n, carrier)
                };
                roll = r.map_err(|e| match e {
                    SkillError::CarrierTooSmall { .. } => err(
                        &t,
                        "a carrier at least as large as the Skill die",
                        Some(format!(
                            "{e}: a SuperNatural Action die Blesses or Curses dice of its own size or smaller (Ch. D.4)"
                        )),
                    ),
                    SkillError::TooMany => err(
                        &count_tok,
                        if bless {
                            "fewer Blessings on one die"
                        } else {
                            "fewer Curses on one die"
                        },
                        Some(e.to_string()),
                    ),
                })?;
            }
            return Ok(TermKind::Skill(roll));
        }
        if let Some((_, _, _, t, _)) = blessings.first() {
            return Err(err(
                t,
                "a Skill die to Bless or Curse",
                Some(
                    "Blessings and Curses attach to a Skill die (Ch. D.4): `d6 skill bless`".into(),
                ),
            ));
        }
        if let Some(want) = kind.die()
            && want != die
        {
            let k = kind_tok.as_ref().unwrap_or(first);
            return Err(err(
                k,
                &format!("{} dice with `{}`", want, kind.tag()),
                Some(format!(
                    "{} damage is rolled on {}s ({}): write `{}{} {}`",
                    capitalise(kind.tag()),
                    want,
                    kind.source(),
                    count,
                    want,
                    kind.tag()
                )),
            ));
        }
        Ok(TermKind::Dice { count, die, kind })
    }
}

fn is_tag(w: &str) -> bool {
    DamageType::TAGS.iter().any(|(s, _)| *s == w) || matches!(w, "skill" | "bless" | "curse")
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Parses and validates an expression.
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let toks = lex(text)?;
    let mut p = Parser { toks, at: 0 };
    let terms = p.expr()?;
    let mut skill_seen = false;
    for (term, tok) in &terms {
        if let TermKind::Skill(_) = term.kind {
            if skill_seen {
                return Err(err(
                    tok,
                    "one Skill die per roll",
                    Some("a unit rolls one Skill die per action (Ch. 4.2)".into()),
                ));
            }
            if term.negative {
                return Err(err(
                    tok,
                    "an added Skill die",
                    Some("the Skill die is the roll itself; subtract modifiers instead".into()),
                ));
            }
            skill_seen = true;
        }
    }
    Ok(Expr {
        text: text.trim().to_string(),
        terms: terms.into_iter().map(|(t, _)| t).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(bool, TermKind)> {
        parse(text)
            .unwrap()
            .terms
            .into_iter()
            .map(|t| (t.negative, t.kind))
            .collect()
    }

    #[test]
    fn the_notation_of_the_texts() {
        use TermKind::*;
        assert_eq!(
            kinds("2d6-1"),
            vec![
                (
                    false,
                    Dice {
                        count: 2,
                        die: Die::D6,
                        kind: DamageType::Plain
                    }
                ),
                (true, Const(1))
            ]
        );
        assert_eq!(
            kinds("3d10 exp"),
            vec![(
                false,
                Dice {
                    count: 3,
                    die: Die::D10,
                    kind: DamageType::Exp
                }
            )]
        );
        assert_eq!(
            kinds("sn 2d8"),
            vec![(
                false,
                Sn(SnRoll {
                    count: 2,
                    die: Die::D8
                })
            )]
        );
        assert_eq!(
            kinds("d10 skill"),
            vec![(false, Skill(SkillRoll::new(Die::D10)))]
        );
        let b = SkillRoll::new(Die::D6)
            .blessed(1, Some(Die::D8))
            .unwrap()
            .cursed(1, None)
            .unwrap();
        assert_eq!(kinds("d6 skill bless d8 curse"), vec![(false, Skill(b))]);
        assert_eq!(kinds(" - 4 ")[0], (true, Const(4)));
        assert_eq!(kinds("1D4 FIRE").len(), 1);
    }

    fn error(text: &str) -> ParseError {
        parse(text).unwrap_err()
    }

    #[test]
    fn errors_point_at_the_column() {
        let e = error("2d7");
        assert_eq!((e.column, e.width), (3, 1));
        assert!(e.expected.contains("die size"), "{e}");
        let e = error("1d6 + ");
        assert_eq!(e.column, 7);
        assert!(e.found.contains("end"), "{e}");
        let e = error("2d6 exp");
        assert_eq!((e.column, e.width), (5, 3));
        assert!(e.hint.unwrap().contains("2d10 exp"));
        let e = error("2d6 skill");
        assert!(e.hint.unwrap().contains("Ch. 10.1"));
        let e = error("d6 skill + d8 skill");
        assert_eq!(e.column, 12);
        let e = error("d6 bless");
        assert!(e.hint.unwrap().contains("Ch. D.4"));
        let e = error("d8 skill curse d6");
        assert_eq!(e.column, 10);
        assert_eq!(error("").found, "the end of the expression");
        assert_eq!(error("1d6 2").column, 5);
        assert_eq!(error("2 d6").column, 3);
        assert_eq!(error("3d10 (exp)").column, 6);
        assert_eq!(error("0d6").column, 1);
        assert_eq!(error("1001d6").column, 1);
        assert_eq!(error("99999999999999999999999").column, 1);
        assert_eq!(error("sn d6 exp").column, 7);
        assert_eq!(error("exp").column, 1);
        assert_eq!(error("d6 exp fire").column, 8);
    }

    #[test]
    fn render_draws_a_caret() {
        let text = "2d6 exp";
        let r = error(text).render("<expression>", text);
        assert!(
            r.starts_with("<expression>:1:5: expected d10 dice with `exp`"),
            "{r}"
        );
        assert!(r.contains("\n  2d6 exp\n      ^^^\nhint:"), "{r}");
    }
}
