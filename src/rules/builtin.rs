//! The built-in rulesets, embedded in the binary.

/// `(file, YAML)` of each built-in ruleset.
pub(super) const BUILTIN_YAML: &[(&str, &str)] = &[
    (
        "rulesets/standard.yaml",
        include_str!("../../rulesets/standard.yaml"),
    ),
    (
        "rulesets/straight-gin.yaml",
        include_str!("../../rulesets/straight-gin.yaml"),
    ),
    (
        "rulesets/three-player.yaml",
        include_str!("../../rulesets/three-player.yaml"),
    ),
    (
        "rulesets/four-player.yaml",
        include_str!("../../rulesets/four-player.yaml"),
    ),
    (
        "rulesets/oklahoma-three.yaml",
        include_str!("../../rulesets/oklahoma-three.yaml"),
    ),
    (
        "rulesets/oklahoma-four.yaml",
        include_str!("../../rulesets/oklahoma-four.yaml"),
    ),
];

/// `(file name, text)` of each script the built-ins bind.
pub(super) const BUILTIN_SCRIPTS: &[(&str, &str)] = &[
    (
        "oklahoma.rhai",
        include_str!("../../rulesets/oklahoma.rhai"),
    ),
    (
        "hollywood.rhai",
        include_str!("../../rulesets/hollywood.rhai"),
    ),
    (
        "four-player.rhai",
        include_str!("../../rulesets/four-player.rhai"),
    ),
    (
        "four-player-tournament.rhai",
        include_str!("../../rulesets/four-player-tournament.rhai"),
    ),
];
