//! `policies`, `metrics` and `options`: the registries printed as text or JSON.

use crate::CliResult;

pub fn cmd_policies(json: bool, samples: bool) -> CliResult {
    let cat = schedlab::policy::catalogue();
    if samples {
        for spec in schedlab::policy::sample_specs() {
            println!("{spec}");
        }
        return Ok(());
    }
    if json {
        println!("{}", serde_json::to_string_pretty(cat)?);
        return Ok(());
    }
    for p in cat {
        println!("{}  {}", p.name, p.summary);
        println!("    source: {}", p.source);
        for k in p.keys {
            println!(
                "    {}={}  (default {}): {}",
                k.name, k.values, k.default, k.help
            );
            for pre in k.presets {
                println!(
                    "      {}={}: {}  ({})",
                    k.name, pre.name, pre.expr, pre.source
                );
            }
        }
        println!("    {}", p.description);
        println!();
    }
    Ok(())
}

pub fn cmd_metrics(json: bool) -> CliResult {
    use schedlab::metrics::METRICS;
    if json {
        println!("{}", serde_json::to_string_pretty(METRICS)?);
        return Ok(());
    }
    println!("{:<24} {:<8} {:<7} label", "name", "better", "unit");
    for m in METRICS {
        let better = serde_json::to_value(m.better)?;
        println!(
            "{:<24} {:<8} {:<7} {}",
            m.name,
            better.as_str().unwrap_or(""),
            m.unit,
            m.label
        );
    }
    Ok(())
}

pub fn cmd_options(json: bool, js: bool) -> CliResult {
    use schedlab::options::{page_module, OPTIONS};
    if js {
        print!("{}", page_module());
    } else if json {
        println!("{}", serde_json::to_string_pretty(OPTIONS)?);
    } else {
        println!(
            "{:<22} {:<10} {:<14} {:<14} what",
            "flag", "link key", "page control", "default"
        );
        let or = |s: &'static str| if s.is_empty() { "-" } else { s };
        for o in OPTIONS {
            println!(
                "{:<22} {:<10} {:<14} {:<14} {}",
                or(o.flag),
                or(o.key),
                or(o.form),
                or(o.default),
                o.label
            );
        }
    }
    Ok(())
}
