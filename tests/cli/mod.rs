//! The `schedlab` command line: the comparison table, JSON, CSVs, sweeps, plots and errors.

mod admin_cli;
mod alea_cli;
mod assoc_cli;
mod calc_read_cli;
mod eet_cli;
mod fidelity_cli;
mod gpu_note_cli;
mod hostile_cli;
mod include_cli;
mod newcomer_cli;
mod pipe_cli;
mod qos_cli;
mod run_cli;
mod site_cli;
mod sweep_cli;
mod table_cli;
mod weights_cli;
