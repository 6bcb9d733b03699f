//! Constructs (Ch. 10.4): "Constructs have a Connection Strength rating rather than an
//! Armor rating ... Any Damage equal to or greater than the Connection Strength breaks off a
//! Modular Part of the defender's choice ... A Damage total that is multiple times the size
//! of the Connection Strength will break off the corresponding number of multiple Modular
//! Parts." Removing a limb costs what an Amputation costs ([`crate::rules::medik::Body`]).

/// Modular Parts knocked off by `damage` against Connection Strength `cs` (at least 1).
pub fn parts_knocked_off(damage: i64, cs: u32) -> u32 {
    let cs = cs.max(1) as i64;
    if damage < cs {
        0
    } else {
        (damage / cs).min(u32::MAX as i64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damage_breaks_off_a_part_per_multiple_of_connection_strength() {
        // "if an attacker dealt 7 Damage to a Creature with Connection Strength 2, the
        // Creature would lose 3 Modular Parts"; "A single hammerblow doing five points of
        // Damage is enough to knock them all off at once" (a Skelly, Connection Strength 1).
        assert_eq!(parts_knocked_off(7, 2), 3);
        assert_eq!(parts_knocked_off(5, 1), 5);
        assert_eq!(parts_knocked_off(2, 2), 1, "equal breaks one off");
        assert_eq!(parts_knocked_off(1, 2), 0);
        assert_eq!(parts_knocked_off(-3, 1), 0);
    }
}
