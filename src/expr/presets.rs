//! Named priority expressions from the literature, usable as `queue=NAME`.

/// A stored expression.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Preset {
    pub name: &'static str,
    pub expr: &'static str,
    pub source: &'static str,
}

/// Every preset; `schedlab policies` lists them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "wfp3",
        expr: "-(wait/requested)^3*procs",
        source: "WFP3: Tang, Lan, Desai & Buettner, Fault-aware, utility-based job scheduling on Blue Gene/P systems (CLUSTER 2009)",
    },
    Preset {
        name: "unicep",
        expr: "-wait/(log2(procs)*requested)",
        source: "UNICEP: Tang, Lan, Desai & Buettner (CLUSTER 2009)",
    },
    Preset {
        name: "saf",
        expr: "requested*procs",
        source: "SAF, smallest area first",
    },
    Preset {
        name: "f1",
        expr: "log10(requested)*procs+870*log10(submit)",
        source: "F1: Carastan-Santos & de Camargo, Obtaining dynamic scheduling policies with simulation and machine learning (SC'17)",
    },
    Preset {
        name: "f2",
        expr: "sqrt(requested)*procs+25600*log10(submit)",
        source: "F2: Carastan-Santos & de Camargo (SC'17)",
    },
    Preset {
        name: "f3",
        expr: "requested*procs+6860000*log10(submit)",
        source: "F3: Carastan-Santos & de Camargo (SC'17)",
    },
    Preset {
        name: "f4",
        expr: "requested*sqrt(procs)+530000*log10(submit)",
        source: "F4: Carastan-Santos & de Camargo (SC'17)",
    },
];

/// The preset named `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}
