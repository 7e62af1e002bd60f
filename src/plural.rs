//! Counts in words, as every message that prints a count says them: `1 job`, `2 jobs`,
//! `1 policy`, `3 policies`.

use std::fmt::Display;

/// `n` then `noun`, in the plural unless `n` is 1: `count(1, "job")` is "1 job",
/// `count(0, "job")` "0 jobs", `count(2, "policy")` "2 policies".
pub fn count<T: Display + PartialEq + From<u8>>(n: T, noun: &str) -> String {
    let word = if n == T::from(1) {
        noun.to_string()
    } else {
        plural(noun)
    };
    format!("{n} {word}")
}

/// The plural of an English noun of this crate's messages: a consonant then `y` gives `ies`,
/// an `s`, `x`, `ch` or `sh` ending `es`, any other `s`. A noun of several words takes it on
/// its last (`other key` -> `other keys`).
pub fn plural(noun: &str) -> String {
    let consonant_y = noun.ends_with('y')
        && noun
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|c| c.is_ascii_alphabetic() && !"aeiouAEIOU".contains(c));
    if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1])
    } else if ["s", "x", "ch", "sh"].iter().any(|e| noun.ends_with(e)) {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(count(1usize, "job"), "1 job");
        assert_eq!(count(0u64, "job"), "0 jobs");
        assert_eq!(count(2u32, "job"), "2 jobs");
        assert_eq!(count(-1i64, "job"), "-1 jobs");
        assert_eq!(count(1usize, "policy"), "1 policy");
        assert_eq!(count(3usize, "policy"), "3 policies");
        assert_eq!(count(2usize, "other key"), "2 other keys");
        assert_eq!(count(2usize, "pass"), "2 passes");
        assert_eq!(count(2usize, "GPU"), "2 GPUs");
    }
}
