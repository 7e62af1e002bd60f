//! Policy spec strings: `name` or `name[key=value,...]`; values may nest brackets
//! (`easy[predictor=virtual[err=0.2]]`) and parentheses (`easy[queue=expr(min(wait,1))]`):
//! a comma inside either belongs to the value.

use std::fmt;

/// A parsed spec string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub params: Vec<(String, String)>,
}

/// A spec string that could not be used; the message lists what is valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("policy \"{spec}\": {reason}")]
pub struct SpecError {
    pub spec: String,
    pub reason: String,
}

/// Longest spec string accepted (spec strings arrive from URLs and forms).
const MAX_SPEC_LEN: usize = 1000;

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

/// A key name: as a policy name, with capitals too (the `slurm` policy's keys are Slurm's
/// own names: `PriorityWeightAge`).
fn is_key(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Spec {
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        let err = |reason: String| SpecError {
            spec: text.chars().take(80).collect(),
            reason,
        };
        let s = text.trim();
        if s.is_empty() {
            return Err(err("empty policy spec".into()));
        }
        if s.len() > MAX_SPEC_LEN {
            return Err(err(format!("longer than {MAX_SPEC_LEN} characters")));
        }
        let (name, rest) = match s.find('[') {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        };
        let name = name.trim();
        if !is_ident(name) {
            // `EASY` or `Easy`: the name in lowercase, when that is one, is offered.
            let lower = name.to_ascii_lowercase();
            let several: Vec<&str> = name.split([',', ' ']).filter(|n| !n.is_empty()).collect();
            let hint = if is_ident(&lower) {
                format!("; did you mean \"{lower}\"?")
            } else if several.len() > 1 && several.iter().all(|n| is_ident(n)) {
                // `fcfs,easy`: a list of policies in one spec.
                format!(
                    "; a spec names one policy: give each of {} as a spec of its own \
                     (schedlab run: -p {})",
                    several.join(", "),
                    several.join(" -p ")
                )
            } else {
                String::new()
            };
            return Err(err(format!(
                "\"{name}\" is not a policy name (lowercase letters, digits and '-'){hint}"
            )));
        }
        let mut params = Vec::new();
        if !rest.is_empty() {
            // Characters are counted in the spec as given (1 is its first).
            let lead = text.chars().count() - text.trim_start().chars().count();
            if let Some(reason) = unbalanced(s, lead) {
                return Err(err(reason));
            }
            let inner = rest
                .strip_prefix('[')
                .and_then(|r| r.strip_suffix(']'))
                .ok_or_else(|| err("parameters must be written [key=value,...]".into()))?;
            for part in split_top(inner).map_err(err)? {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let (k, v) = part
                    .split_once('=')
                    .ok_or_else(|| err(format!("\"{part}\" is not key=value")))?;
                let (k, v) = (k.trim(), v.trim());
                if !is_key(k) {
                    return Err(err(format!("\"{k}\" is not a parameter name")));
                }
                if v.is_empty() {
                    return Err(err(format!("{k}: empty value")));
                }
                if params.iter().any(|(pk, _): &(String, String)| pk == k) {
                    return Err(err(format!("{k} given twice")));
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(Spec {
            name: name.to_string(),
            params,
        })
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// `a` and `b` are equal, or one edit apart: a letter changed, inserted or deleted, or two
/// neighbours swapped (the optimal string alignment distance, `strsim`).
pub fn one_typo(a: &str, b: &str) -> bool {
    strsim::osa_distance(a, b) <= 1
}

/// What is unbalanced in `s`, when a bracket or parenthesis is: the closer that closes
/// nothing, the opener a wrong closer meets, else every opener never closed (innermost first), each with
/// its character position (`lead` characters precede `s` in the spec as given).
fn unbalanced(s: &str, lead: usize) -> Option<String> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for (n, ch) in s.chars().enumerate() {
        let at = lead + n + 1;
        match ch {
            '[' | '(' => open.push((ch, at)),
            ']' | ')' => {
                let opener = if ch == ']' { '[' } else { '(' };
                match open.pop() {
                    Some((o, _)) if o == opener => {}
                    Some((o, p)) => {
                        let closer = if o == '[' { ']' } else { ')' };
                        return Some(format!(
                            "unbalanced '{o}' at character {p}: a '{closer}' is missing \
                             before the '{ch}' at character {at}"
                        ));
                    }
                    None => {
                        return Some(format!(
                            "unbalanced '{ch}' at character {at}: no '{opener}' before it"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    let missing: Vec<String> = open
        .iter()
        .rev()
        .map(|&(o, p)| {
            let closer = if o == '[' { ']' } else { ')' };
            format!("unbalanced '{o}' at character {p}: a '{closer}' is missing")
        })
        .collect();
    (!missing.is_empty()).then(|| missing.join("; "))
}

/// Splits on commas that are not inside brackets or parentheses (the one splitter of spec
/// parameters and of sweep value lists: `expr(min(wait,1)),saf` is two values).
pub fn split_top(s: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut parens = 0i32;
    let mut begin = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ']'".into());
                }
            }
            '(' => parens += 1,
            ')' => {
                parens -= 1;
                if parens < 0 {
                    return Err(format!("unbalanced ')' at character {}", i + 1));
                }
            }
            ',' if depth == 0 && parens == 0 => {
                out.push(&s[begin..i]);
                begin = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("unbalanced '['".into());
    }
    if parens != 0 {
        return Err("unbalanced '(': a ')' is missing".into());
    }
    out.push(&s[begin..]);
    Ok(out)
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            f.write_str("[")?;
            for (i, (k, v)) in self.params.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{k}={v}")?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One edit, worked by hand: a letter changed (easy/eesy), dropped (easy/esy), added
    /// (easy/easyy), two neighbours swapped (wait/wiat); two edits (easy/ysae, wait/wt) are not.
    #[test]
    fn one_typo_is_one_edit_or_a_swap() {
        for (a, b) in [
            ("easy", "easy"),
            ("easy", "eesy"),
            ("easy", "esy"),
            ("easy", "easyy"),
        ] {
            assert!(one_typo(a, b) && one_typo(b, a), "{a} / {b}");
        }
        assert!(one_typo("wiat", "wait") && one_typo("DefaultTme", "DefaultTime"));
        for (a, b) in [
            ("easy", "ysae"),
            ("wait", "wt"),
            ("easy", "fcfs"),
            ("ab", "ba "),
        ] {
            assert!(!one_typo(a, b) && !one_typo(b, a), "{a} / {b}");
        }
    }

    #[test]
    fn parses_nested_values() {
        let s = Spec::parse(" easy[order=sjf, predictor=virtual[err=0.2,seed=3]] ").unwrap();
        assert_eq!(s.name, "easy");
        assert_eq!(s.get("order"), Some("sjf"));
        assert_eq!(s.get("predictor"), Some("virtual[err=0.2,seed=3]"));
        assert_eq!(
            s.to_string(),
            "easy[order=sjf,predictor=virtual[err=0.2,seed=3]]"
        );
    }

    #[test]
    fn commas_inside_parentheses_belong_to_the_value() {
        let s = Spec::parse("easy[queue=expr(max(wait, 2)*min(1,procs)),order=sjf]").unwrap();
        assert_eq!(s.get("queue"), Some("expr(max(wait, 2)*min(1,procs))"));
        assert_eq!(s.get("order"), Some("sjf"));
        assert!(Spec::parse("easy[queue=expr(max(wait,2),order=sjf]").is_err());
        assert!(Spec::parse("easy[queue=expr(wait)),order=sjf]").is_err());
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "Easy",
            "easy[",
            "easy[order]",
            "easy[order=]",
            "easy[a=1,a=2]",
            "easy]x",
            "e[a=[b]",
        ] {
            assert!(Spec::parse(bad).is_err(), "{bad} accepted");
        }
        // A name in capitals is told its lowercase spelling; one that has none is not.
        assert_eq!(
            Spec::parse("EASY").unwrap_err().reason,
            "\"EASY\" is not a policy name (lowercase letters, digits and '-'); did you mean \"easy\"?"
        );
        // Several names in one spec are told to be given one a spec.
        assert_eq!(
            Spec::parse("fcfs,easy").unwrap_err().reason,
            "\"fcfs,easy\" is not a policy name (lowercase letters, digits and '-'); a spec \
             names one policy: give each of fcfs, easy as a spec of its own (schedlab run: -p \
             fcfs -p easy)"
        );
        // An unclosed bracket or parenthesis is named with its place (it was "parameters
        // must be written [key=value,...]"): in `easy[queue=expr(wait/3600` the '[' is the 5th
        // character and the '(' the 16th (e,a,s,y,[ then q,u,e,u,e,=,e,x,p,r,( : 5 + 11).
        assert_eq!(
            Spec::parse("easy[queue=expr(wait/3600").unwrap_err().reason,
            "unbalanced '(' at character 16: a ')' is missing; \
             unbalanced '[' at character 5: a ']' is missing"
        );
        // ` easy[a=1)]`: the ')' (10th: space,e,a,s,y,[,a,=,1,) — a leading space counts) meets
        // the '[' (6th) still open.
        assert_eq!(
            Spec::parse(" easy[a=1)]").unwrap_err().reason,
            "unbalanced '[' at character 6: a ']' is missing before the ')' at character 10"
        );
        assert_eq!(
            Spec::parse("easy[a=1])").unwrap_err().reason,
            "unbalanced ')' at character 10: no '(' before it"
        );
        // Balanced but not [..] at the end keeps the old message.
        assert_eq!(
            Spec::parse("easy[a=1]x").unwrap_err().reason,
            "parameters must be written [key=value,...]"
        );
        assert!(!Spec::parse("e asy")
            .unwrap_err()
            .reason
            .contains("did you mean"));
    }
}
