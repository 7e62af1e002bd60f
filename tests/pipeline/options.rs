//! The options schema (`schedlab::options`) against everything that names an option: the
//! engine's defaults, the page's form (`index.html`) and the page's copy of the schema
//! (`www/options.js`, from which `share.js` reads link keys). The CLI flags are checked in
//! `src/bin/schedlab/main.rs` (the clap definitions live there).

use schedlab::machine::NodeModel;
use schedlab::options::{page_module, Group, Kind, SessionOptions, OPTIONS};
use serde_json::Value;
use std::collections::HashSet;

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The value at a dotted path.
fn at<'a>(v: &'a Value, path: &str) -> &'a Value {
    path.split('.')
        .fold(v, |v, k| v.get(k).unwrap_or(&Value::Null))
}

/// Whether a JSON default equals the schema's text form.
fn same(v: &Value, text: &str) -> bool {
    match v {
        Value::Null => text.is_empty(),
        Value::Bool(b) => text == if *b { "1" } else { "0" },
        Value::Number(n) => text.parse::<f64>().ok() == n.as_f64(),
        Value::String(s) => s == text,
        Value::Array(a) => a.is_empty() && text.is_empty(),
        Value::Object(_) => false,
    }
}

#[test]
fn the_schema_states_the_engines_defaults() {
    let defaults = serde_json::to_value(SessionOptions::default()).unwrap();
    let nodes = serde_json::to_value(NodeModel::default()).unwrap();
    let mut checked = 0;
    for o in OPTIONS {
        if o.field.is_empty() {
            continue;
        }
        let v = match o.field.strip_prefix("nodes.") {
            Some(f) => at(&nodes, f),
            // The node model is off (null) by default.
            None if o.field == "nodes" => &Value::Bool(false),
            None => at(&defaults, o.field),
        };
        assert!(
            same(v, o.default),
            "{}: engine {v}, schema {:?}",
            o.field,
            o.default
        );
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
    // --demands LOW,MEDIUM,HIGH is the node model's three demands.
    let m = NodeModel::default();
    let demands = OPTIONS.iter().find(|o| o.flag == "--demands").unwrap();
    assert_eq!(
        demands.default,
        format!("{},{},{}", m.low, m.medium, m.high)
    );
    // The node model is off unless asked for.
    assert_eq!(defaults["nodes"], Value::Null);
}

#[test]
fn keys_flags_and_controls_are_unique_and_fields_exist() {
    let (mut keys, mut flags, mut forms) = (HashSet::new(), HashSet::new(), HashSet::new());
    // Every optional field set, so that each is present in the JSON.
    let full = serde_json::to_value(SessionOptions {
        input: schedlab::input::InputOptions {
            procs: Some(8),
            skip_status: vec![5],
            nodes: Some(NodeModel {
                field: Some(19),
                ..Default::default()
            }),
            max_jobs: Some(1),
            transform: schedlab::workload::transform::Transform {
                load_scale: Some(1.5),
                from: Some("0".into()),
                to: Some("10".into()),
                users: vec![1.into()],
                exclude_users: vec![2.into()],
            },
            cluster: Some("1/n1:c4:m0".into()),
            ..Default::default()
        },
        strict: true,
        metrics: schedlab::metrics::MetricOptions {
            window: schedlab::metrics::Window {
                warmup: 1,
                measured: Some(2),
            },
            eet: schedlab::metrics::EetOptions {
                user_capacity: vec![(1, 2.0)],
                machine_memory: Some(1024),
                ..Default::default()
            },
            ..Default::default()
        },
        slurm_conf: None,
        sshare: None,
        qos: None,
        assoc: None,
        slurm_conf_name: None,
        sshare_name: None,
        qos_name: None,
        assoc_name: None,
    })
    .unwrap();
    for o in OPTIONS {
        assert!(
            o.key.is_empty() || keys.insert(o.key),
            "key {} twice",
            o.key
        );
        assert!(
            o.flag.is_empty() || flags.insert(o.flag),
            "flag {} twice",
            o.flag
        );
        assert!(
            o.form.is_empty() || forms.insert(o.form),
            "control {} twice",
            o.form
        );
        assert!(o.flag.is_empty() || o.flag.starts_with("--"), "{}", o.flag);
        assert!(
            // `load-scale` is the control's name the workload issue gave it; the generator's
            // controls are in its panel.
            o.form.is_empty()
                || o.form.starts_with("opt-")
                || o.form == "load-scale"
                || (o.group == Group::Generate && o.form.starts_with("generate-")),
            "{}",
            o.form
        );
        if !o.field.is_empty() && o.field != "nodes" {
            // A field the engine deserialises: present when everything is set.
            let v = at(&full, o.field);
            assert_ne!(v, &Value::Null, "{}: no such field", o.field);
        }
        // What a link carries, the page can show and set.
        assert!(
            o.key.is_empty() || !o.form.is_empty(),
            "{}: a link key without a control",
            o.key
        );
        if o.group == Group::Nodes && o.key != "nodes" {
            assert!(
                o.field.is_empty() || o.field.starts_with("nodes."),
                "{}",
                o.field
            );
        }
    }
}

#[test]
fn the_form_has_every_control_with_its_default() {
    let html = std::fs::read_to_string(root().join("index.html")).unwrap();
    let mut seen = HashSet::new();
    for (i, _) in html.match_indices("data-testid=\"opt-") {
        let id: String = html[i + 13..].chars().take_while(|&c| c != '"').collect();
        seen.insert(id);
    }
    for o in OPTIONS.iter().filter(|o| !o.form.is_empty()) {
        assert!(
            seen.remove(o.form) || html.contains(&format!("data-testid=\"{}\"", o.form)),
            "index.html has no control {}",
            o.form
        );
        let at = html.find(&format!("data-testid=\"{}\"", o.form)).unwrap();
        let tag_start = html[..at].rfind('<').unwrap();
        let tag_end = at + html[at..].find('>').unwrap();
        let tag = &html[tag_start..=tag_end];
        match o.kind {
            Kind::Bool => assert_eq!(
                tag.contains(" checked"),
                o.default == "1",
                "{}: checked must be {}",
                o.form,
                o.default
            ),
            Kind::Choice { values } => {
                // A select whose options are the values, the default first.
                let end = at + html[at..].find("</select>").unwrap();
                let opts: Vec<String> = html[at..end]
                    .match_indices("<option value=\"")
                    .map(|(j, _)| {
                        html[at + j + 15..]
                            .chars()
                            .take_while(|&c| c != '"')
                            .collect()
                    })
                    .collect();
                assert_eq!(opts, values, "{}", o.form);
                assert_eq!(opts[0], o.default, "{}", o.form);
            }
            _ => {
                let value = tag
                    .find("value=\"")
                    .map(|v| {
                        tag[v + 7..]
                            .chars()
                            .take_while(|&c| c != '"')
                            .collect::<String>()
                    })
                    .unwrap_or_default();
                assert_eq!(value, o.default, "{}: value", o.form);
                if o.default.is_empty() {
                    assert!(
                        tag.contains("placeholder="),
                        "{}: says what empty means",
                        o.form
                    );
                }
            }
        }
        if let Kind::Whole { min, .. } = o.kind {
            if tag.contains("type=\"number\"") {
                assert!(
                    tag.contains(&format!("min=\"{min}\"")),
                    "{}: min {min}",
                    o.form
                );
            }
        }
    }
    assert!(seen.is_empty(), "controls not in the schema: {seen:?}");
}

#[test]
fn the_pages_copy_of_the_schema_is_up_to_date() {
    let path = root().join("www/options.js");
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    let want = page_module();
    if have != want {
        if std::env::var_os("SCHEDLAB_UPDATE").is_some() {
            std::fs::write(&path, &want).unwrap();
        } else {
            panic!(
                "www/options.js is out of date: run `cargo run -- options --js > www/options.js` \
                 (or this test with SCHEDLAB_UPDATE=1)"
            );
        }
    }
}
