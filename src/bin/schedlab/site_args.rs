//! The files of a Slurm site beside `--slurm-conf` (which `InputArgs` holds, as it gives the
//! cluster too): shares, QOS and associations. One set of flags for every command that runs
//! the `slurm` policy (`run`, `sweep`, `plot`, `replay`, `bench`), read into one
//! [`schedlab::slurm::Site`].

use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Clone, Default)]
pub struct SiteArgs {
    /// `sshare -a -l -P` output: the account tree, shares and usage at the log's start, for
    /// the `slurm` policy (without it every user has one share under root).
    #[arg(long)]
    pub sshare: Option<PathBuf>,
    /// `sacctmgr show qos format=Name,Priority -P` output: each QOS's priority, for the
    /// `slurm` policy's QOS factor (a job's QOS is the sacct log's `QOS` column; without the
    /// file every QOS has priority 0); with the columns MaxJobsPU, MaxTRESPU, GrpTRES,
    /// GrpJobs, MaxWall too, each QOS's limits, and with GrpJobsAccrue, MaxJobsAccruePU,
    /// MaxJobsAccruePA its accrue limits (held when slurm.conf's AccountingStorageEnforce
    /// names limits).
    #[arg(long)]
    pub qos: Option<PathBuf>,
    /// `sacctmgr show assoc -P
    /// format=Cluster,Account,User,Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall`
    /// output: the association limits, for the `slurm` policy, and with GrpJobsAccrue,
    /// MaxJobsAccrue the accrue limits (held when slurm.conf's AccountingStorageEnforce names
    /// limits).
    #[arg(long)]
    pub assoc: Option<PathBuf>,
}

impl SiteArgs {
    /// The files given, in the order --sshare, --qos, --assoc.
    pub fn paths(&self) -> [Option<&Path>; 3] {
        [
            self.sshare.as_deref(),
            self.qos.as_deref(),
            self.assoc.as_deref(),
        ]
    }

    /// Whether any of the three files is given.
    pub fn any(&self) -> bool {
        self.paths().iter().any(Option::is_some)
    }

    /// The site of `conf` (a slurm.conf, with the files its `Include` lines name) and these
    /// files, when any is given.
    pub fn read(
        &self,
        conf: Option<&Path>,
    ) -> Result<Option<schedlab::slurm::Site>, Box<dyn std::error::Error>> {
        // Each file's text with its name (for errors), when given.
        let read = |path: Option<&Path>| {
            path.map(|p| {
                let text =
                    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
                Ok::<_, String>((text, p.display().to_string()))
            })
            .transpose()
        };
        let conf = conf
            .map(|p| {
                let read = schedlab::cluster::conf::read_path(p)?;
                Ok::<_, schedlab::cluster::conf::ConfError>((read, p.display().to_string()))
            })
            .transpose()?;
        let [sshare, qos, assoc] = self.paths();
        let (sshare, qos, assoc) = (read(sshare)?, read(qos)?, read(assoc)?);
        fn pair(x: &Option<(String, String)>) -> Option<(&str, &str)> {
            x.as_ref().map(|(t, f)| (t.as_str(), f.as_str()))
        }
        Ok(schedlab::slurm::Site::of_read(
            conf.as_ref().map(|(c, f)| (c, f.as_str())),
            pair(&sshare),
            pair(&qos),
            pair(&assoc),
        )?)
    }
}
