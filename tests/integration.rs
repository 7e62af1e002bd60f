//! The native integration tests, one binary: each file `tests/NAME.rs` (and each folder
//! `tests/NAME/` with a `mod.rs`) is a module here, so a test is named `NAME::test` and
//! `cargo test --test integration NAME::` runs one file's tests. One binary links the library
//! and its dependencies once instead of once per file (see docs/internals.md, "Tests and
//! scripts"). The memory bounds are a binary of their own (`tests/memory/`: a counting global
//! allocator); the page's tests are in `tests/browser/` (Node).
//!
//! A new test file: `tests/NAME.rs`, a `mod NAME;` line below, helpers through
//! `use crate::common;`. `every_test_file_is_in_a_binary` fails on a file left out.

mod common;

mod architecture;
mod batsim_errors;
mod batsim_versions;
mod chart_legends;
mod charts;
mod cli;
mod cluster_conf;
mod cluster_policies;
mod cluster_props;
mod cluster_sched;
mod cluster_table;
mod compare_charts;
mod doc_paths;
mod eet_charts;
mod engine_checker;
mod engine_instants;
mod engine_nodes;
mod engine_nodes_outputs;
mod engine_nodes_props;
mod engine_properties;
mod engine_same_instant;
mod engine_view;
mod fuzz_inputs;
mod gallery;
mod generate;
mod generate_users;
mod gpu_lanes;
mod historic_nodes;
mod input_semantics;
mod input_streaming;
mod job_outcomes;
mod layouts;
mod metrics;
mod multipart_jobs;
mod paper_readings;
mod pipeline;
mod policy_backfilling_orders;
mod policy_by_hand;
mod policy_easy_index;
mod policy_expr_orders;
mod policy_external;
mod policy_fairshare;
mod policy_pv_easy;
mod policy_slurm;
mod policy_spec_errors;
mod quoted_errors;
mod replay;
mod sacct_json;
mod sacct_other_versions;
mod sacct_partition_limit;
mod slurm_accrue;
mod slurm_assoc_limits;
mod slurm_fairshare;
mod slurm_mins_limits;
mod slurm_qos_limits;
mod slurm_sites_props;
mod start_reasons;
mod start_reasons_traces;
mod sweep_chart;
mod sweep_shards;
mod swf_bad_input;
mod swf_bad_stream;
mod swf_proptest;
mod swf_reader;
mod trace_view;
mod traces;
mod user_names;
mod workload_cli;
mod workload_convert;
mod workload_detect;
mod workload_formats;
mod workload_pipe;
mod workload_requests;
mod workload_requeue;
mod workload_transforms;

use std::path::Path;

/// Cargo builds only the targets named in Cargo.toml (`autotests = false`): a file in tests/
/// that no binary declares would never run.
#[test]
fn every_test_file_is_in_a_binary() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(tests.join("integration.rs")).unwrap();
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let mut left_out = Vec::new();
    for entry in std::fs::read_dir(&tests).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let is_module = if path.is_dir() {
            path.join("mod.rs").is_file()
        } else {
            path.extension().is_some_and(|e| e == "rs") && name != "integration"
        };
        if is_module && !suite.contains(&format!("\nmod {name};\n")) {
            left_out.push(format!(
                "tests/{name}: no `mod {name};` in tests/integration.rs"
            ));
        }
        if path.join("main.rs").is_file()
            && !manifest.contains(&format!("path = \"tests/{name}/main.rs\""))
        {
            left_out.push(format!("tests/{name}/main.rs: no [[test]] in Cargo.toml"));
        }
    }
    assert!(left_out.is_empty(), "{}", left_out.join("\n"));
}
