//! Slurm's resource counts as `sacct` prints them: TRES lists (`ReqTRES`, `AllocTRES`:
//! `billing=2,cpu=2,gres/gpu=4,mem=1000M,node=2`) and memory sizes (`ReqMem`), read for a
//! job's request (see [`super::sacct`] and docs/workloads.md for the mapping).

use crate::quote::quote;

/// What a TRES list says of a job (each `None` when the list does not name it).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tres {
    /// `cpu=`
    pub cpu: Option<u64>,
    /// `mem=`, in MB, over the whole job (Slurm's TRES memory is the job's total).
    pub mem_mb: Option<f64>,
    /// `node=`
    pub node: Option<u64>,
    /// `gres/gpu=`, else the sum of the typed `gres/gpu:TYPE=` counts (a typed count is a
    /// share of the untyped one when both are listed).
    pub gpus: Option<u64>,
}

/// Reads a TRES list (empty: nothing named). Keys other than `cpu`, `mem`, `node`,
/// `gres/gpu` and `gres/gpu:TYPE` (`billing`, `energy`, `fs/disk`, licenses, other GRES) are
/// ignored; every entry must be `key=value`.
pub fn tres(text: &str) -> Result<Tres, String> {
    let mut t = Tres::default();
    let mut typed_gpus: Option<u64> = None;
    for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((key, value)) = entry.split_once('=') else {
            return Err(format!(
                "not a TRES entry (key=value): {}",
                crate::quote::quote(entry)
            ));
        };
        let key = key.trim().to_ascii_lowercase();
        // A GRES count as Slurm reads one, with its suffixes (`gres/gpu=2k`: 2048; sacct
        // prints whole numbers, but a log's own tools may not).
        let gres = || {
            crate::cluster::conf::gres_count(value.trim()).map_err(|_| {
                format!(
                    "{key}: not a count: {} (in {})",
                    crate::quote::quote(value),
                    crate::quote::quote(entry)
                )
            })
        };
        let count = || {
            value.trim().parse::<u64>().map_err(|_| {
                format!(
                    "{key}: not a count: {} (in {})",
                    crate::quote::quote(value),
                    crate::quote::quote(entry)
                )
            })
        };
        match key.as_str() {
            "cpu" => t.cpu = Some(count()?),
            "node" => t.node = Some(count()?),
            "gres/gpu" => t.gpus = Some(gres()?),
            "mem" => t.mem_mb = Some(size_mb(value).map_err(|e| format!("mem: {e}"))?),
            k if k.starts_with("gres/gpu:") => {
                let n = gres()?;
                typed_gpus = Some(typed_gpus.unwrap_or(0).saturating_add(n));
            }
            _ => {}
        }
    }
    t.gpus = t.gpus.or(typed_gpus);
    Ok(t)
}

/// The GPUs per node a `ReqGRES` / `AllocGRES` list names (sacct of Slurm <= 19.05, before
/// TRES: `gpu:2`, `gpu:tesla:2`, `gpu:2(IDX:0-1)`, `gpu` for one, per node): the sum of its
/// `gpu` entries; `None` when it names none (empty, `N/A`, other GRES only). As Slurm's
/// `_get_gres_cnt` reads one: the last part is the count when it starts with a digit, with
/// Slurm's suffixes (`gpu:2k`: 2048; [`crate::cluster::conf::gres_count`]), else a type or the
/// name (`gpu`, `gpu:tesla`: one); a count that is not one (`gpu:2x`) is an error.
pub fn gres_gpus_per_node(text: &str) -> Result<Option<u64>, String> {
    let mut gpus: Option<u64> = None;
    for entry in text.split(',').map(str::trim) {
        let entry = entry.split('(').next().unwrap_or("").trim();
        let entry = entry.strip_prefix("gres/").unwrap_or(entry);
        let name = entry.split(':').next().unwrap_or("");
        if !name.eq_ignore_ascii_case("gpu") {
            continue;
        }
        let last = entry.rsplit(':').next().unwrap_or("");
        let n = match last.bytes().next() {
            Some(b) if b.is_ascii_digit() && entry.contains(':') => {
                crate::cluster::conf::gres_count(last)
                    .map_err(|e| format!("{}: {e}", quote(entry)))?
            }
            _ => 1,
        };
        gpus = Some(gpus.unwrap_or(0).saturating_add(n));
    }
    Ok(gpus)
}

/// The largest memory size read, in MB: 2^40 MB, an exabyte, far past any node's or job's (a
/// larger one is a damaged line, not a request: it would saturate every sum it enters).
pub const MAX_SIZE_MB: f64 = (1u64 << 40) as f64;

/// A memory size as Slurm prints it, in MB: a number with an optional unit `K`, `M`, `G`, `T`
/// or `P` (powers of 1024; no unit = MB, Slurm's default), at most [`MAX_SIZE_MB`].
pub fn size_mb(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (num, scale) = match t.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&t[..t.len() - 1], 1.0 / 1024.0),
        Some(b'M') => (&t[..t.len() - 1], 1.0),
        Some(b'G') => (&t[..t.len() - 1], 1024.0),
        Some(b'T') => (&t[..t.len() - 1], 1024.0 * 1024.0),
        Some(b'P') => (&t[..t.len() - 1], 1024.0 * 1024.0 * 1024.0),
        _ => (t, 1.0),
    };
    let mb = num
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| v * scale)
        .ok_or_else(|| {
            format!(
                "not a memory size (a number with K, M, G, T or P): {}",
                crate::quote::quote(text)
            )
        })?;
    if mb > MAX_SIZE_MB {
        return Err(format!(
            "a memory size past an exabyte (2^40 MB): {}",
            crate::quote::quote(text)
        ));
    }
    Ok(mb)
}

/// `ReqMem`: what the job asked, in MB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReqMem {
    /// No suffix (Slurm 21.08 and later: the job's TRES memory, over the whole job).
    Total(f64),
    /// Suffix `n` (Slurm before 21.08: `--mem`, per node).
    PerNode(f64),
    /// Suffix `c` (Slurm before 21.08: `--mem-per-cpu`).
    PerCpu(f64),
}

/// Reads `ReqMem`; empty or `0` (any unit) is none.
pub fn req_mem(text: &str) -> Result<Option<ReqMem>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let (num, kind): (&str, fn(f64) -> ReqMem) = match t.as_bytes().last() {
        Some(b'c') => (&t[..t.len() - 1], ReqMem::PerCpu),
        Some(b'n') => (&t[..t.len() - 1], ReqMem::PerNode),
        _ => (t, ReqMem::Total),
    };
    let mb = size_mb(num)?;
    Ok((mb > 0.0).then(|| kind(mb)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gres_lists_of_old_sacct_give_gpus_per_node() {
        let g = |t: &str| gres_gpus_per_node(t).unwrap();
        assert_eq!(g("gpu:2"), Some(2));
        assert_eq!(g("gpu:tesla:2(IDX:0-1)"), Some(2));
        assert_eq!(g("gpu"), Some(1));
        // Two typed entries add (1 + 3); another GRES is not a GPU.
        assert_eq!(g("gpu:k80:1,mic:4,gpu:p100:3"), Some(4));
        assert_eq!(g("mic:4"), None);
        assert_eq!(g(""), None);
        assert_eq!(g("N/A"), None);
        // Slurm's count suffixes (suffix_mult): 2k = 2 x 1024 = 2048 (before: 1, "2k" not a
        // number); a type, a socket binding and another GRES beside it change nothing.
        assert_eq!(g("gpu:2k"), Some(2048));
        assert_eq!(g("gpu:tesla:2"), Some(2));
        assert_eq!(g("gpu:1(S:0-1)"), Some(1));
        assert_eq!(g("gpu:2,mps:100"), Some(2));
        assert_eq!(g("gpu:1KB"), Some(1000));
        // A count Slurm refuses ("Bad GRES configuration") is an error, not one GPU.
        assert_eq!(
            gres_gpus_per_node("gpu:2x").unwrap_err(),
            "\"gpu:2x\": \"2x\": not a count (digits, then none or k, m, g, t, p, as Slurm reads one)"
        );
    }

    #[test]
    fn tres_lists() {
        let t = tres("billing=2,cpu=2,gres/gpu=4,mem=1000M,node=2").unwrap();
        assert_eq!(
            t,
            Tres {
                cpu: Some(2),
                mem_mb: Some(1000.0),
                node: Some(2),
                gpus: Some(4)
            }
        );
        let t = tres("cpu=64,mem=1.50G,node=1,gres/gpu:a100=2,gres/gpu:v100=1,energy=9").unwrap();
        assert_eq!((t.gpus, t.mem_mb), (Some(3), Some(1536.0)));
        let t = tres("gres/gpu=4,gres/gpu:a100=4").unwrap();
        assert_eq!(t.gpus, Some(4));
        // A GRES count with Slurm's suffix: 2k = 2048; a bad one is an error naming the entry.
        assert_eq!(tres("cpu=1,gres/gpu=2k").unwrap().gpus, Some(2048));
        assert_eq!(
            tres("gres/gpu:a100=1k,gres/gpu:v100=1").unwrap().gpus,
            Some(1025)
        );
        assert!(tres("gres/gpu=2x")
            .unwrap_err()
            .starts_with("gres/gpu: not a count: \"2x\""));
        assert_eq!(tres("").unwrap(), Tres::default());
        assert_eq!(tres("mem=2048K").unwrap().mem_mb, Some(2.0));
        assert_eq!(tres("mem=512").unwrap().mem_mb, Some(512.0));
        assert!(tres("cpu=2,node").unwrap_err().contains("\"node\""));
        assert!(tres("cpu=two").unwrap_err().starts_with("cpu: not a count"));
        assert!(tres("mem=12Q")
            .unwrap_err()
            .starts_with("mem: not a memory size"));
        assert!(tres("gres/gpu=-1").is_err());
    }

    #[test]
    fn req_mem_forms() {
        assert_eq!(req_mem("4000M").unwrap(), Some(ReqMem::Total(4000.0)));
        assert_eq!(req_mem("2Gc").unwrap(), Some(ReqMem::PerCpu(2048.0)));
        // An exabyte is the most read; past it the line is damaged, not a request.
        assert_eq!(
            req_mem("1P").unwrap(),
            Some(ReqMem::Total(1024.0 * 1024.0 * 1024.0))
        );
        assert_eq!(
            req_mem("1048576Tn").unwrap(),
            Some(ReqMem::PerNode(MAX_SIZE_MB))
        );
        let err = req_mem("99999999999999999999Mc").unwrap_err();
        assert!(err.starts_with("a memory size past an exabyte"), "{err}");
        assert_eq!(req_mem("8Gn").unwrap(), Some(ReqMem::PerNode(8192.0)));
        assert_eq!(req_mem("100").unwrap(), Some(ReqMem::Total(100.0)));
        assert_eq!(req_mem("0n").unwrap(), None);
        assert_eq!(req_mem(" ").unwrap(), None);
        assert!(req_mem("lots").is_err());
        assert!(req_mem("-5M").is_err());
    }
}
