//! The module graph stays acyclic: reads every `crate::...` / `super::...` path in src/**/*.rs
//! (the library; src/bin and src/web are front ends and import only through `schedlab::`),
//! builds the graph of top-level modules and the graph of policy submodules, and fails on a
//! cycle, on a leaf module importing anything but leaves, or on a policy part importing a
//! sibling part of the same kind (shared mechanisms are building blocks in `policy/blocks`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file, as components: src/policy/rule/easy.rs -> [policy, rule, easy].
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts
}

/// Code lines only (comments dropped, test modules kept: they count too).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module path the file refers to, resolved to absolute components.
fn references(module: &[String], text: &str) -> Vec<Vec<String>> {
    let text = code(text);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let ident = |i: usize| -> (String, usize) {
        let mut e = i;
        while e < bytes.len() && (bytes[e].is_ascii_alphanumeric() || bytes[e] == b'_') {
            e += 1;
        }
        (text[i..e].to_string(), e)
    };
    // A path: a run of `ident::` segments, possibly ending in a `{a, b::c}` group.
    let mut push_path = |mut base: Vec<String>, mut i: usize| loop {
        if text[i..].starts_with('{') {
            let close = text[i..].find('}').map_or(text.len(), |c| i + c);
            for item in text[i + 1..close].split(',') {
                let first = item.trim().split("::").next().unwrap_or("").trim();
                if !first.is_empty() && first != "self" {
                    let mut p = base.clone();
                    p.push(first.to_string());
                    out.push(p);
                }
            }
            out.push(base);
            return;
        }
        let (id, e) = ident(i);
        if id.is_empty() {
            out.push(base);
            return;
        }
        base.push(id);
        if text[e..].starts_with("::") {
            i = e + 2;
        } else {
            out.push(base);
            return;
        }
    };
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if boundary && rest.starts_with("crate::") {
            push_path(Vec::new(), i + 7);
            i += 7;
        } else if boundary && rest.starts_with("super::") {
            // `super::` is the parent of the file's module, whether the file is mod.rs or not.
            let mut b = module.to_vec();
            let mut j = i;
            while text[j..].starts_with("super::") {
                b.pop();
                j += 7;
            }
            push_path(b, j);
            i = j;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    out
}

struct Graph {
    /// file module -> referenced modules (each reference resolved to its longest prefix that
    /// is a module of the crate)
    refs: Vec<(Vec<String>, Vec<Vec<String>>)>,
}

/// The longest prefix of `path` that is one of `modules`.
fn resolve(path: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| modules.contains(p))
}

fn graph() -> Graph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut refs = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&root).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy().to_string();
        if top == "bin" || top == "web" || top == "lib.rs" {
            continue;
        }
        let module = module_of(rel);
        let text = std::fs::read_to_string(&f).unwrap();
        refs.push((module.clone(), references(&module, &text)));
    }
    let modules: BTreeSet<Vec<String>> = refs.iter().map(|(m, _)| m.clone()).collect();
    for (_, targets) in refs.iter_mut() {
        *targets = targets
            .iter()
            .filter_map(|t| resolve(t, &modules))
            .collect();
    }
    Graph { refs }
}

/// Edges between modules at a granularity: `key` maps a module path to its node (or None).
fn edges(
    g: &Graph,
    key: impl Fn(&[String]) -> Option<String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in &g.refs {
        let Some(a) = key(from) else { continue };
        e.entry(a.clone()).or_default();
        for t in targets {
            if let Some(b) = key(t) {
                if b != a {
                    e.entry(a.clone()).or_default().insert(b);
                }
            }
        }
    }
    e
}

/// A cycle in the graph, if any, as a path of nodes.
fn cycle(e: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        e: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for m in e.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, e, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in e.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(n, e, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn top_level(p: &[String]) -> Option<String> {
    p.first().cloned()
}

#[test]
fn top_level_modules_form_no_cycle() {
    let g = graph();
    let e = edges(&g, top_level);
    assert!(e.contains_key("sim") && e.contains_key("policy"), "{e:?}");
    if let Some(c) = cycle(&e) {
        panic!("import cycle between modules: {}", c.join(" -> "));
    }
}

#[test]
fn leaf_modules_import_only_leaves() {
    let g = graph();
    let e = edges(&g, top_level);
    let leaves = ["job", "machine", "spec", "swf"];
    for leaf in ["job", "machine", "spec"] {
        let out = e.get(leaf).unwrap_or_else(|| panic!("no module {leaf}"));
        for m in out {
            assert!(
                leaves.contains(&m.as_str()),
                "leaf module {leaf} imports {m}"
            );
        }
    }
    // The engine knows no policy, predictors know neither policies nor the engine's state.
    assert!(!e["sim"].contains("policy"), "sim imports policy");
    assert!(!e["predict"].contains("policy"), "predict imports policy");
    assert!(!e["predict"].contains("sim"), "predict imports sim");
}

/// Policy submodules: `policy::order::fairshare` -> "order::fairshare"; the parts' traits and the
/// building blocks are nodes too.
fn policy_part(p: &[String]) -> Option<String> {
    if p.first().map(String::as_str) != Some("policy") || p.len() < 2 {
        return None;
    }
    Some(p[1..p.len().min(3)].join("::"))
}

#[test]
fn policy_submodules_form_no_cycle_and_parts_do_not_import_siblings() {
    let g = graph();
    let e = edges(&g, policy_part);
    if let Some(c) = cycle(&e) {
        panic!("import cycle between policy modules: {}", c.join(" -> "));
    }
    // Concrete parts (a queue order, an allocator, a start rule) never import another part of
    // their kind; what they share is a building block.
    let kinds = ["order", "alloc", "rule"];
    let mut parts = 0;
    for (from, to) in &e {
        let Some((kind, _)) = from.split_once("::") else {
            continue;
        };
        if !kinds.contains(&kind) {
            continue;
        }
        parts += 1;
        for t in to {
            if let Some((k2, _)) = t.split_once("::") {
                assert!(
                    k2 != kind,
                    "policy part {from} imports another part {t}; move what they share to policy::blocks"
                );
            }
        }
    }
    assert!(
        parts >= 10,
        "expected the policy parts under policy/{{order,alloc,rule}}: {e:?}"
    );
}

#[test]
fn the_reader_sees_paths() {
    let m = vec!["policy".to_string(), "rule".to_string(), "easy".to_string()];
    let r = references(
        &m,
        "use super::super::blocks::{heads, shadow::Shadow};\nuse crate::sim::{Ctx, SimError};\n// crate::nope\nlet x = crate::predict::VALUES;",
    );
    let has = |p: &[&str]| r.iter().any(|x| x == p);
    assert!(has(&["policy", "blocks", "heads"]), "{r:?}");
    assert!(has(&["policy", "blocks", "shadow"]), "{r:?}");
    assert!(has(&["sim", "Ctx"]), "{r:?}");
    assert!(has(&["predict", "VALUES"]), "{r:?}");
    assert!(
        !r.iter().any(|x| x.first().is_some_and(|f| f == "nope")),
        "{r:?}"
    );
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let edge = |e: &mut BTreeMap<String, BTreeSet<String>>, a: &str, b: &str| {
        e.entry(a.into()).or_default().insert(b.into());
    };
    edge(&mut e, "sim", "job");
    edge(&mut e, "policy", "sim");
    edge(&mut e, "predict", "job");
    assert_eq!(cycle(&e), None);
    edge(&mut e, "sim", "policy");
    let c = cycle(&e).expect("sim -> policy -> sim");
    assert!(
        c.contains(&"sim".to_string()) && c.contains(&"policy".to_string()),
        "{c:?}"
    );
}
