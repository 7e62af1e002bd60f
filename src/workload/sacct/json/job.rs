//! A job of `sacct --json` as the reader takes it: the keys it uses, every other one (its
//! `steps`, comments, exit codes, ...) skipped as it is read, never kept. The keys are
//! Slurm's (`dbv0.0.38` in 22.05, the data_parser's `v0.0.39` in 23.02 and later, the same
//! paths): `job_id`, `name`, `user`, `group`, `account`, `partition`, `qos`, `nodes`,
//! `allocation_nodes`, `flags`, `association` (`account`, `user`), `array` (`job_id`,
//! `task_id`, `task`), `het` (`job_id`, `job_offset`), `time` (`submission`, `eligible`,
//! `start`, `end`, `elapsed`, `limit` in minutes, `total` CPU time), `state` (`current`),
//! `required` (`CPUs`, and 23.02's `memory_per_cpu`, `memory_per_node`) and `tres`
//! (`requested`, `allocated`: lists of `{type, name, count}`).

use serde::Deserialize;

use super::value::{Num, Text, Texts};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Job {
    pub job_id: Num,
    pub name: Text,
    pub user: Text,
    pub group: Text,
    pub account: Text,
    pub partition: Text,
    pub qos: Text,
    pub nodes: Text,
    pub allocation_nodes: Num,
    pub flags: Option<Texts>,
    pub association: Association,
    pub array: Array,
    pub het: Het,
    pub time: Time,
    pub state: State,
    pub required: Required,
    pub tres: Option<TresLists>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Association {
    pub account: Text,
    pub user: Text,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Array {
    pub job_id: Num,
    pub task_id: Num,
    /// The tasks of an array not yet split (a pending record): `5-10`.
    pub task: Text,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Het {
    pub job_id: Num,
    pub job_offset: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Time {
    pub submission: Num,
    pub eligible: Num,
    pub start: Num,
    pub end: Num,
    pub elapsed: Num,
    /// Minutes.
    pub limit: Num,
    pub total: CpuTime,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct CpuTime {
    pub seconds: Num,
    pub microseconds: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    pub current: Texts,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Required {
    #[serde(rename = "CPUs")]
    pub cpus: Num,
    /// MB per CPU (23.02 and later).
    pub memory_per_cpu: Num,
    /// MB per node (23.02 and later).
    pub memory_per_node: Num,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct TresLists {
    /// `None`: not there (an empty list is a job with nothing allocated).
    pub requested: Option<Vec<TresEntry>>,
    pub allocated: Option<Vec<TresEntry>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct TresEntry {
    #[serde(rename = "type")]
    pub kind: Text,
    pub name: Text,
    pub count: Num,
}
