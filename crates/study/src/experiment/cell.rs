//! A cell file (DIR/cells/NNNNN.json): one cell's answer, sealed with a SHA-256 of its own
//! text so that an edited or damaged file is refused, never reused or merged (issue 38).
//!
//! The seal is the file's first field, `{"checksum":"HEX",` followed by the rest of the
//! answer's JSON: the checksum covers exactly the bytes after it (with the opening brace),
//! so it does not depend on how a JSON library orders keys.

use sha2::{Digest, Sha256};

/// What opens a sealed file, before the 64 hex digits of its checksum.
const HEAD: &str = "{\"checksum\":\"";

/// Why a cell file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    #[error("it carries no checksum")]
    Unsealed,
    #[error("its checksum does not match its content (edited or damaged)")]
    Mismatch,
    #[error("it is not a cell's JSON: {0}")]
    NotJson(String),
}

/// The text of a cell file holding `answer` (a JSON object).
pub fn seal(answer: &serde_json::Value) -> String {
    let text = answer.to_string();
    let body = text.strip_prefix('{').unwrap_or(&text);
    let sep = if body == "}" { "" } else { "," };
    format!("{HEAD}{}\"{sep}{body}", hex(&text))
}

/// The answer a cell file's bytes hold, if its checksum matches them.
pub fn unseal(bytes: &[u8]) -> Result<serde_json::Value, Broken> {
    let text = std::str::from_utf8(bytes).map_err(|e| Broken::NotJson(e.to_string()))?;
    let rest = text.strip_prefix(HEAD).ok_or(Broken::Unsealed)?;
    let (sum, body) = match (rest.get(..64), rest.get(64..)) {
        (Some(s), Some(b)) => (s, b),
        _ => return Err(Broken::Unsealed),
    };
    let body = body.strip_prefix('"').ok_or(Broken::Unsealed)?;
    let body = body.strip_prefix(',').unwrap_or(body);
    let inner = format!("{{{body}");
    if hex(&inner) != sum {
        return Err(Broken::Mismatch);
    }
    serde_json::from_str(&inner).map_err(|e| Broken::NotJson(e.to_string()))
}

fn hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_cell_opens_to_the_same_answer() {
        let a = serde_json::json!({"p_a_wins": 0.61215, "tally": "1 2 3", "stamp": {"cell": 3}});
        let text = seal(&a);
        assert!(text.starts_with(HEAD), "{text}");
        assert_eq!(unseal(text.as_bytes()), Ok(a));
        assert_eq!(
            unseal(seal(&serde_json::json!({})).as_bytes()),
            Ok(serde_json::json!({}))
        );
    }

    #[test]
    fn an_edited_cell_is_refused() {
        let text = seal(&serde_json::json!({"a_wins": 61215, "trials": 100000}));
        let edited = text.replace("61215", "61265");
        assert_eq!(unseal(edited.as_bytes()), Err(Broken::Mismatch));
        // An unsealed answer (an older file, or one written by hand) is refused too.
        assert_eq!(unseal(b"{\"a_wins\":1}"), Err(Broken::Unsealed));
        assert_eq!(unseal(&text.as_bytes()[..40]), Err(Broken::Unsealed));
        assert!(matches!(unseal(&[0xff, 0xfe]), Err(Broken::NotJson(_))));
    }
}
