//! Output to a pipe closed early (`schedlab policies | head`) ends quietly: no panic about a
//! broken pipe (Unix: the process ends on SIGPIPE as other tools do).

use std::process::{Command, Stdio};

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_output_quietly() {
    let trace = crate::common::trace("hpc2n.swf");
    let trace = trace.to_str().unwrap();
    for args in [
        vec!["policies"],
        vec!["policies", "--json"],
        vec!["metrics"],
        vec!["options", "--js"],
        vec!["run", trace, "-p", "fcfs", "--jobs-csv", "/dev/stdout"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_schedlab"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reading end closed before the first write.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}
