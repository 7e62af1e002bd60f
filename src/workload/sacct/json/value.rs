//! The values of a job of `sacct --json`, read leniently: a value of the wrong kind is kept as
//! what it was (`Bad`), so that the reader names the job and the field, and never stops the
//! read of the others (serde's own error names neither).
//!
//! Numbers come in two layouts (Slurm's `src/plugins/openapi/dbv0.0.38/parse.c`, 22.05, and
//! `src/plugins/data_parser/v0.0.39/parsers.c`, 23.02, and later): a plain number, `null`
//! for Slurm's `NO_VAL` and `INFINITE` (22.05), or `{"set": bool, "infinite": bool,
//! "number": N}` (23.02 and later, `UINT32_NO_VAL` and `UINT64_NO_VAL`).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A number of a job.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Num {
    /// The key is not there.
    #[default]
    Absent,
    /// `null`: 22.05's `NO_VAL` or `INFINITE`, not told apart.
    Null,
    /// `{"set": false, "infinite": false}`: 23.02's `NO_VAL`.
    Unset,
    /// `{"infinite": true}`: 23.02's `INFINITE`.
    Infinite,
    /// A whole number.
    Value(i64),
    /// Not a number: what it was.
    Bad(String),
}

/// What a value of the wrong kind was, for a message (a string quoted, cut at 40 characters).
fn described_str(s: &str) -> String {
    let cut: String = s.chars().take(40).collect();
    let more = if cut.len() < s.len() { "..." } else { "" };
    format!("the string {}{more}", crate::quote::quote(&cut))
}

struct NumVisitor;

impl<'de> Visitor<'de> for NumVisitor {
    type Value = Num;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, null or {\"set\", \"infinite\", \"number\"}")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
        Ok(Num::Value(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
        Ok(i64::try_from(v).map_or_else(|_| Num::Bad(format!("{v}, too large")), Num::Value))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
        // Slurm writes whole numbers; a whole float (`12.0`) is one.
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            Ok(Num::Value(v as i64))
        } else {
            Ok(Num::Bad(format!("{v}, not a whole number")))
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
        Ok(Num::Bad(described_str(v)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Num, E> {
        Ok(Num::Bad(format!("{v}")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Num, E> {
        Ok(Num::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Num, E> {
        Ok(Num::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Num, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Num::Bad("a list".into()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Num, A::Error> {
        let (mut set, mut infinite, mut number) = (None, None, Num::Absent);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "set" => set = Some(map.next_value::<Flag>()?),
                "infinite" => infinite = Some(map.next_value::<Flag>()?),
                "number" => number = map.next_value::<Num>()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        // data_parser's UINT64_NO_VAL: `infinite` wins over `set` and `number`.
        Ok(match (set, infinite, number) {
            (_, Some(Flag::Bad), _) | (Some(Flag::Bad), _, _) => {
                Num::Bad("an object whose set or infinite is no true or false".into())
            }
            (_, Some(Flag::Yes), _) => Num::Infinite,
            (Some(Flag::No), _, _) => Num::Unset,
            (_, _, Num::Value(n)) => Num::Value(n),
            (_, _, Num::Bad(b)) => Num::Bad(format!("an object whose number is {b}")),
            _ => Num::Bad("an object without a number".into()),
        })
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        d.deserialize_any(NumVisitor)
    }
}

/// `set` or `infinite` of a number object.
enum Flag {
    Yes,
    No,
    Bad,
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Flag, D::Error> {
        Ok(match serde_json::Value::deserialize(d)? {
            serde_json::Value::Bool(true) => Flag::Yes,
            serde_json::Value::Bool(false) => Flag::No,
            _ => Flag::Bad,
        })
    }
}

/// A text of a job.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Text {
    /// Not there, or `null`.
    #[default]
    None,
    Str(String),
    /// Not a text: what it was.
    Bad(String),
}

impl Text {
    /// The text ("" when none).
    pub(crate) fn get(&self) -> Result<&str, &str> {
        match self {
            Text::None => Ok(""),
            Text::Str(s) => Ok(s),
            Text::Bad(b) => Err(b),
        }
    }
}

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or null")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        Ok(Text::Str(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Text, E> {
        Ok(Text::Str(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
        Ok(Text::Bad(format!("the number {v}")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
        Ok(Text::Bad(format!("the number {v}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
        Ok(Text::Bad(format!("the number {v}")))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Text, E> {
        Ok(Text::Bad(format!("{v}")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Text, E> {
        Ok(Text::None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Text, E> {
        Ok(Text::None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Text::Bad("a list".into()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Text::Bad("an object".into()))
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

/// A list of texts: 23.02's `state/current` and every version's `flags`; 22.05's state is
/// one text, read as a list of one.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Texts {
    #[default]
    None,
    List(Vec<String>),
    Bad(String),
}

struct TextsVisitor;

impl<'de> Visitor<'de> for TextsVisitor {
    type Value = Texts;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or a list of strings")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Texts, E> {
        Ok(Texts::List(vec![v.to_owned()]))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Texts, E> {
        Ok(Texts::None)
    }

    fn visit_none<E: de::Error>(self) -> Result<Texts, E> {
        Ok(Texts::None)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Texts, E> {
        Ok(Texts::Bad(format!("the number {v}")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Texts, E> {
        Ok(Texts::Bad(format!("the number {v}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Texts, E> {
        Ok(Texts::Bad(format!("the number {v}")))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Texts, E> {
        Ok(Texts::Bad(format!("{v}")))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Texts, A::Error> {
        let mut out = Vec::new();
        let mut bad = None;
        while let Some(t) = seq.next_element::<Text>()? {
            match t {
                Text::Str(s) => out.push(s),
                Text::None => {}
                Text::Bad(b) => bad = bad.or(Some(format!("a list holding {b}"))),
            }
        }
        Ok(bad.map_or(Texts::List(out), Texts::Bad))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Texts, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Texts::Bad("an object".into()))
    }
}

impl<'de> Deserialize<'de> for Texts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Texts, D::Error> {
        d.deserialize_any(TextsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(json: &str) -> Num {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn numbers_of_both_layouts() {
        assert_eq!(num("12"), Num::Value(12));
        assert_eq!(num("12.0"), Num::Value(12));
        assert_eq!(num("null"), Num::Null);
        assert_eq!(
            num(r#"{"set": true, "infinite": false, "number": 30}"#),
            Num::Value(30)
        );
        assert_eq!(
            num(r#"{"set": false, "infinite": true, "number": 0}"#),
            Num::Infinite
        );
        assert_eq!(
            num(r#"{"set": false, "infinite": false, "number": 0}"#),
            Num::Unset
        );
        assert!(matches!(num(r#""12""#), Num::Bad(b) if b.contains("\"12\"")));
        assert!(matches!(num("1.5"), Num::Bad(_)));
        assert!(matches!(num(r#"{"set": "yes", "number": 3}"#), Num::Bad(_)));
        assert!(matches!(num("18446744073709551615"), Num::Bad(_)));
    }

    #[test]
    fn texts_and_lists() {
        let t: Text = serde_json::from_str("5").unwrap();
        assert_eq!(t, Text::Bad("the number 5".into()));
        let l: Texts = serde_json::from_str(r#""COMPLETED""#).unwrap();
        assert_eq!(l, Texts::List(vec!["COMPLETED".into()]));
        let l: Texts = serde_json::from_str(r#"["CANCELLED", "REQUEUED"]"#).unwrap();
        assert_eq!(l, Texts::List(vec!["CANCELLED".into(), "REQUEUED".into()]));
        let l: Texts = serde_json::from_str(r#"[1]"#).unwrap();
        assert!(matches!(l, Texts::Bad(_)));
    }
}
