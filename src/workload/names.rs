//! The names behind a trace's numbers. SWF numbers users and groups; the sacct reader
//! (`sacct/number.rs`) numbers them in order of first appearance and lists the names in the
//! header's notes (`; Note: users numbered in order of first appearance: 1=alice, 2=bob`), which
//! an SWF file converted from an sacct log keeps. [`Names`] reads them back, so that charts,
//! tables and texts show a person `alice` rather than `1`; a trace without the notes keeps its
//! numbers. Names are for display only: nothing simulated depends on them.

use serde::{Deserialize, Serialize};

/// The note that lists the user names.
const USERS: &str = "users numbered in order of first appearance:";
/// The note that lists the group names (an sacct log's `Group`).
const GROUPS: &str = "groups numbered in order of first appearance:";

/// User and group names by number, from a trace's header notes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Names {
    /// User `id` is named `users[id - 1]`; empty when the trace names no user.
    pub users: Vec<String>,
    /// Group `id` is named `groups[id - 1]`; empty when the trace names no group.
    pub groups: Vec<String>,
}

impl Names {
    /// The names listed in header lines `lines` (the last listing of each kind wins).
    pub fn of_header<'a>(lines: impl IntoIterator<Item = &'a str>) -> Names {
        let mut names = Names::default();
        for line in lines {
            if let Some(list) = listing(line, USERS) {
                names.users = list;
            } else if let Some(list) = listing(line, GROUPS) {
                names.groups = list;
            }
        }
        names
    }

    /// How user `id` is shown to a person: its name, else its number.
    pub fn user(&self, id: i64) -> String {
        name_or_number(&self.users, id)
    }

    /// How group `id` is shown to a person: its name, else its number.
    pub fn group(&self, id: i64) -> String {
        name_or_number(&self.groups, id)
    }

    /// Does the trace name its users?
    pub fn has_users(&self) -> bool {
        !self.users.is_empty()
    }

    /// The number of the user named `name`, when the trace names one so.
    pub fn user_id(&self, name: &str) -> Option<i64> {
        self.users
            .iter()
            .position(|n| n == name)
            .map(|i| i as i64 + 1)
    }

    /// The numbers of users `picked`, as option `option` (`--users`) gave them: a number
    /// stays itself, a name becomes its number; a name the trace does not give is an error
    /// naming the option and the name.
    pub fn user_ids(&self, picked: &[UserRef], option: &str) -> Result<Vec<i64>, String> {
        picked
            .iter()
            .map(|u| match u {
                UserRef::Id(id) => Ok(*id),
                UserRef::Name(name) => self.user_id(name).ok_or_else(|| self.unknown(name, option)),
            })
            .collect()
    }

    /// The error of a name the trace does not give.
    fn unknown(&self, name: &str, option: &str) -> String {
        if self.users.is_empty() {
            return format!(
                "{option} {name}: this trace does not name its users (only an sacct log, or \
                 the SWF converted from one, does): give their numbers (SWF field 12)"
            );
        }
        const SHOWN: usize = 12;
        let mut known = self.users[..self.users.len().min(SHOWN)].join(", ");
        if self.users.len() > SHOWN {
            known.push_str(&format!(", ... ({} users)", self.users.len()));
        }
        format!("{option} {name}: no user of this trace is named so (its users: {known})")
    }
}

/// A user as a person picks one (`--users`, the page's user lists): a number (SWF field 12),
/// or a name the trace gives ([`Names`]). Text that reads as a whole number is always a
/// number, so that lists of numbers read as they always did; a user whose name is all
/// digits (sacct shows a uid it cannot name) is picked by its number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum UserRef {
    Id(i64),
    Name(String),
}

impl std::str::FromStr for UserRef {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err("an empty user: give a number or a name".into());
        }
        Ok(t.parse()
            .map_or_else(|_| UserRef::Name(t.to_string()), UserRef::Id))
    }
}

impl From<i64> for UserRef {
    fn from(id: i64) -> Self {
        UserRef::Id(id)
    }
}

/// The names of a `1=alice, 2=bob` listing after `note`, in number order; `None` when `line`
/// is not that note. An entry without `=` is skipped, as the numbers are 1, 2, ... in order.
fn listing(line: &str, note: &str) -> Option<Vec<String>> {
    let (_, list) = line.split_once(note)?;
    Some(
        list.split(", ")
            .filter_map(|it| it.split_once('=').map(|(_, n)| n.trim().to_string()))
            .collect(),
    )
}

/// `names[id - 1]`, else `id` as text.
pub(crate) fn name_or_number(names: &[String], id: i64) -> String {
    name_of(names, id).map_or_else(|| id.to_string(), str::to_string)
}

/// `names[id - 1]`, when there is one (`names` as [`Names::users`]).
pub fn name_of(names: &[String], id: i64) -> Option<&str> {
    usize::try_from(id - 1)
        .ok()
        .and_then(|i| names.get(i))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_notes_numbers_otherwise() {
        let n = Names::of_header([
            "; Version: 2.2",
            "; Note: users numbered in order of first appearance: 1=alice, 2=bob",
            "; Note: groups numbered in order of first appearance: 1=phys",
            "; Note: job names (field 14) numbered in order of first appearance: 1=w001",
        ]);
        assert_eq!(n.users, ["alice", "bob"]);
        assert_eq!(n.groups, ["phys"]);
        assert_eq!((n.user(1), n.user(2)), ("alice".into(), "bob".into()));
        // Past the list, before it and SWF's "unknown" -1: the number.
        assert_eq!(
            (n.user(3), n.user(0), n.user(-1)),
            ("3".into(), "0".into(), "-1".into())
        );
        assert_eq!((n.group(1), n.group(2)), ("phys".into(), "2".into()));
        let swf = Names::of_header(["; Version: 2.2", "; MaxJobs: 3"]);
        assert!(!swf.has_users());
        assert_eq!(swf.user(7), "7");
    }

    #[test]
    fn users_are_picked_by_number_or_by_name() {
        let n = Names::of_header([
            "; Note: users numbered in order of first appearance: 1=alice, 2=bob",
        ]);
        let refs: Vec<UserRef> = ["bob", " 7", "-1", "alice"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(refs[1], UserRef::Id(7));
        assert_eq!(n.user_ids(&refs, "--users"), Ok(vec![2, 7, -1, 1]));
        assert!("".parse::<UserRef>().is_err());
        let err = n.user_ids(&[UserRef::Name("carol".into())], "--exclude-users");
        assert_eq!(
            err,
            Err(
                "--exclude-users carol: no user of this trace is named so (its users: alice, bob)"
                    .into()
            )
        );
        let swf = Names::default();
        assert_eq!(swf.user_ids(&[UserRef::Id(3)], "--users"), Ok(vec![3]));
        assert!(swf
            .user_ids(&[UserRef::Name("alice".into())], "--users")
            .unwrap_err()
            .starts_with("--users alice: this trace does not name its users"));
        // Numbers and names as JSON (the page's session options, the report).
        let back: Vec<UserRef> = serde_json::from_str(r#"[3, "alice"]"#).unwrap();
        assert_eq!(back, [UserRef::Id(3), UserRef::Name("alice".into())]);
        assert_eq!(serde_json::to_string(&back).unwrap(), r#"[3,"alice"]"#);
    }
}
