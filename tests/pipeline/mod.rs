//! The pipeline and its options: `run::Trace` (a trace, its input and metrics options, EETs
//! computed once, `run(spec)`), the options schema against the engine's defaults and the page.

mod limit_checks;
mod options;
mod run;
mod slurm_site;
