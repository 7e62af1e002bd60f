//! The names behind a trace's numbers. SWF numbers users and groups; the sacct reader
//! (`sacct/number.rs`) numbers them in order of first appearance and lists the names in the
//! header's notes (`; Note: users numbered in order of first appearance: 1=alice, 2=bob`), which
//! an SWF file converted from an sacct log keeps. [`Names`] reads them back, so that charts,
//! tables and texts show a person `alice` rather than `1`; a trace without the notes keeps its
//! numbers. Names are for display only: nothing simulated depends on them.

use serde::Serialize;

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
}
