//! What a sweep part carries to prove its content: the trace's hash; and the first field where
//! two plans differ, for the merge's message.

/// A hash of a trace's bytes, to tell two files apart: 64-bit FNV-1a over the bytes, and their
/// count, as 16 + 16 hex digits. Fed the file front to back ([`ContentHash::update`]).
#[derive(Debug, Clone, Copy)]
pub struct ContentHash {
    h: u64,
    len: u64,
}

impl Default for ContentHash {
    fn default() -> Self {
        ContentHash {
            h: 0xcbf2_9ce4_8422_2325,
            len: 0,
        }
    }
}

impl ContentHash {
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.h = (self.h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.len += bytes.len() as u64;
    }

    pub fn hex(&self) -> String {
        format!("{:016x}{:016x}", self.h, self.len)
    }
}

/// The first field where `a` and `b` differ, as a dotted path, with both values (JSON).
pub(super) fn first_difference(
    path: &str,
    a: &serde_json::Value,
    b: &serde_json::Value,
) -> Option<(String, String, String)> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let null = Value::Null;
                first_difference(&sub, x.get(k).unwrap_or(&null), y.get(k).unwrap_or(&null))
            })
        }
        _ if a == b => None,
        _ => Some((path.to_string(), a.to_string(), b.to_string())),
    }
}
