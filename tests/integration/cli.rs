//! The commands: output shapes, JSON keys, and exit codes.

use std::process::Command;

use diemon::cli::run_with;

/// Runs diemon in-process: (exit code, stdout, stderr).
pub(crate) fn diemon(args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = run_with(
        std::iter::once("diemon").chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = diemon(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn readme_command_prints_the_table_and_p_beats() {
    let (code, out, _) = diemon(&["dist", "2d10 exp", "--vs", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("P(beats) 0.940000"), "{out}");
    assert!(out.contains("mean 11.840000"), "{out}");
    // Pipe output has plain bars.
    assert!(
        out.contains("  10    0.090000    0.640000  ########################################"),
        "{out}"
    );
}

#[test]
fn dist_json_has_the_documented_keys() {
    let v = json(&["dist", "2d10 exp", "--vs", "2d6", "--json"]);
    for key in ["expr", "pmf", "mean", "sd", "truncated_mass", "p_beats"] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["expr"], "2d10 exp");
    let pmf = v["pmf"].as_array().unwrap();
    let sum: f64 = pmf.iter().map(|r| r[1].as_f64().unwrap()).sum();
    let t = v["truncated_mass"].as_f64().unwrap();
    assert!((sum + t - 1.0).abs() < 1e-12);
    assert!((v["mean"].as_f64().unwrap() - 11.84).abs() < 1e-9);
    assert!(v.get("mc").is_none());
}

#[test]
fn dist_mc_reports_agreement_and_is_seeded() {
    let a = json(&[
        "dist",
        "sn d6 + 1",
        "--mc",
        "100000",
        "--seed",
        "5",
        "--json",
    ]);
    let b = json(&[
        "dist",
        "sn d6 + 1",
        "--mc",
        "100000",
        "--seed",
        "5",
        "--json",
    ]);
    assert_eq!(a["mc"], b["mc"], "same seed, same digits");
    assert_eq!(a["mc"]["trials"], 100000);
    assert_eq!(a["mc"]["seed"], 5);
    assert_eq!(a["mc"]["agrees"], true, "{}", a["mc"]);
    let c = json(&[
        "dist",
        "sn d6 + 1",
        "--mc",
        "100000",
        "--seed",
        "6",
        "--json",
    ]);
    assert_ne!(a["mc"]["mean"], c["mc"]["mean"]);
}

#[test]
fn dist_use_gives_the_hit_chance() {
    let v = json(&["dist", "d6 skill - 2", "--use", "3", "--json"]);
    assert!((v["p_meets"].as_f64().unwrap() - 2.0 / 6.0).abs() < 1e-12);
    assert!((v["p_overskill"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn roll_is_reproducible_and_narrated() {
    let (code, a, _) = diemon(&["roll", "2d10 exp + sn d8", "--seed", "9"]);
    assert_eq!(code, 0);
    let (_, b, _) = diemon(&["roll", "2d10 exp + sn d8", "--seed", "9"]);
    assert_eq!(a, b);
    assert!(a.contains("(seed 9)") && a.contains("total "), "{a}");
    assert!(a.contains("d10: "), "{a}");
    let (_, c, _) = diemon(&["roll", "1d6"]);
    assert!(c.contains("(seed "), "a random seed is printed: {c}");
}

#[test]
fn options_lists_every_option() {
    let (code, out, _) = diemon(&["options"]);
    assert_eq!(code, 0);
    for doc in diemon::rules::OPTIONS {
        assert!(out.contains(doc.key), "{}", doc.key);
    }
}

#[test]
fn bad_input_exits_2_with_one_clear_message() {
    for (args, needle) in [
        (
            &["dist", "2d7"][..],
            "<expression>:1:3: expected a die size",
        ),
        (&["dist", "2d6", "--vs", "4x"], "--armor:1:2"),
        (
            &["dist", "d6", "-o", "d4_bonus=maybe"],
            "none, incompetent, all",
        ),
        (&["dist", "d6", "--tail", "0.5"], "--tail"),
        (&["dist", "2d6", "--use", "3"], "needs a Skill roll"),
        (
            &["dist", "d6", "--mc", "0"],
            "'--trials <N>': expected a whole number from 1",
        ),
        (&["roll", "d6 skill + d8 skill"], "one Skill die per roll"),
        (&["dist"], "EXPR"),
        (&["frobnicate"], "unrecognized subcommand"),
    ] {
        let (code, out, err) = diemon(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} wrote to stdout: {out}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn help_teaches_and_exits_0() {
    let (code, out, _) = diemon(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("3d10 exp") && out.contains("Examples"),
        "{out}"
    );
    let (code, out, _) = diemon(&["dist", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--vs"), "{out}");
}

#[test]
fn every_command_s_help_and_man_page_lists_the_exit_codes() {
    // Issue 44: the exit status was only in the top-level help. Walk the whole tree.
    fn walk(path: Vec<String>, c: &clap::Command, seen: &mut usize) {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (code, out, err) = diemon(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        for exit in [
            "Exit status:",
            "  2    bad input",
            "  130  interrupted",
            "  143  stopped",
        ] {
            assert!(out.contains(exit), "{args:?} --help lacks {exit:?}:\n{out}");
        }
        *seen += 1;
        for sub in c.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut next = path.clone();
            next.push(sub.get_name().to_string());
            walk(next, sub, seen);
        }
    }
    let mut seen = 0;
    walk(Vec::new(), &diemon::cli::command(), &mut seen);
    assert!(seen > 15, "{seen} commands walked");
    let (code, page, err) = diemon(&["man", "duel"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        page.contains("Exit status:") && page.contains("143"),
        "{page}"
    );
}

#[test]
fn the_binary_exits_2_on_bad_input() {
    let out = Command::new(env!("CARGO_BIN_EXE_diemon"))
        .args(["dist", "3d10 (exp)"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("^") && err.contains("hint:"), "{err}");
}

#[test]
fn duel_json_has_the_documented_keys_and_is_seeded() {
    let args = ["duel", "--trials", "200k", "--seed", "3", "--json"];
    let v = json(&args);
    for key in [
        "trials",
        "seed",
        "p_a_wins",
        "p_b_wins",
        "ci_a_wins",
        "mean_attacks",
        "trials_per_sec",
    ] {
        assert!(v.get(key).is_some(), "missing {key}: {v}");
    }
    assert_eq!(v["trials"], 200_000);
    let ci = v["ci_a_wins"].as_array().unwrap();
    let p = v["p_a_wins"].as_f64().unwrap();
    assert!(ci[0].as_f64().unwrap() < p && p < ci[1].as_f64().unwrap());
    let w = json(&[
        "duel",
        "--trials",
        "200k",
        "--seed",
        "3",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(v["p_a_wins"], w["p_a_wins"], "same seed, any thread count");
    assert_eq!(v["mean_attacks"], w["mean_attacks"]);
}

#[test]
fn duel_flags_override_the_shorthand_and_replay_narrates() {
    let v = json(&[
        "duel",
        "d6/2/1d6/4",
        "--b-skill",
        "d10",
        "--b-armor",
        "2d6",
        "--trials",
        "70k",
        "--json",
    ]);
    assert!(v["b"].as_str().unwrap().contains("Skill d10"), "{v}");
    assert!(v["p_b_wins"].as_f64().unwrap() > 0.6);
    let (code, out, _) = diemon(&["duel", "--trials", "100", "--replay-trial", "7"]);
    assert_eq!(code, 0);
    assert!(out.contains("trial 7") && out.contains("Skill d6"), "{out}");
    for (args, needle) in [
        (&["duel", "d6/2/1d6"][..], "SKILL/USE/DAMAGE/ARMOR"),
        (&["duel", "2d6/2/1d6/4"], "single Skill die"),
        (
            &["duel", "--trials", "100", "--replay-trial", "100"],
            "trials 0 to 99",
        ),
        (&["duel", "--target-ci", "2"], "--target-ci"),
        (&["duel", "--trials", "lots"], "whole number"),
    ] {
        let (code, _, err) = diemon(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn unit_show_takes_items_as_duel_does() {
    // Issue 24: `NAME+ITEM` as `duel` takes it: 4 CP + 2 + 1.
    let v = json(&["unit", "show", "minifig+hand-weapon+body-armor", "--json"]);
    assert_eq!(v["cp"], 7.0, "{v}");
    let (code, _, err) = diemon(&["unit", "show", "minifig+laser-sword"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("laser-sword") && err.contains("weapon list"),
        "{err}"
    );
}

#[test]
fn unit_show_minifig_prints_4cp_with_its_breakdown() {
    let (code, out, _) = diemon(&["unit", "show", "minifig"]);
    assert_eq!(code, 0);
    assert!(out.contains("Move 5\" (ground)"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("  total") && l.ends_with(" 4 CP")),
        "{out}"
    );
    let v = json(&["unit", "show", "minifig", "--json"]);
    assert_eq!(v["name"], "minifig");
    assert_eq!(v["cp"], 4.0);
    assert_eq!(
        v["breakdown"],
        serde_json::json!([
            ["body: Size 1\" x Structure Level 0", 0.5],
            ["Move 5\" (ground)", 2.5],
            ["Mind: Skill 1d6", 1.0]
        ])
    );
}

#[test]
fn worked_example_creations_print_what_diemon_assumed() {
    // The Ch. 8.1 examples give Size and weapons only; the rest must be flagged.
    let (code, out, _) = diemon(&["unit", "show", "automaton"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("assumed by diemon, not in the texts: structure, move, mind, skill"),
        "{out}"
    );
    assert!(
        out.contains("Giant Shield (3\" melee-shield)  Use 6"),
        "{out}"
    );
    let v = json(&["unit", "show", "scorpiosaurus-rex", "--json"]);
    assert_eq!(v["power"], 6);
    assert_eq!(
        v["assumed"],
        serde_json::json!(["structure", "move", "mind", "skill"])
    );
    let v = json(&["unit", "show", "minifig", "--json"]);
    assert_eq!(v["assumed"], serde_json::json!([]));
}

#[test]
fn unit_list_and_unknown_unit() {
    let (code, out, _) = diemon(&["unit", "list"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|l| l.starts_with("horse ") && l.contains(" 9 ")),
        "{out}"
    );
    let (code, _, err) = diemon(&["unit", "show", "dragon"]);
    assert_eq!(code, 2);
    assert!(err.contains("no unit called \"dragon\""), "{err}");
}

#[test]
fn a_broken_user_catalog_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("diemon-cli-cat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.toml");
    std::fs::write(
        &f,
        "[ogre]\nname = \"Ogre\"\nsource = \"mine\"\nsize = 2\nstructure = \"1\"\nmove = 4\nskill = \"d6\"\nhands = 1\nweapons = [\"two-handed-weapon\"]\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let (code, _, err) = diemon(&["unit", "show", "ogre", "--catalog", path]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "{path}:1:2: unit \"ogre\": weapons: Two-Handed Weapon takes 2 hands"
        )),
        "{err}"
    );
    assert!(err.contains("hint:"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn weapon_by_size_and_by_name() {
    let v = json(&["weapon", "launcher", "--size", "3", "--json"]);
    assert_eq!(
        (v["use"].as_u64(), v["range"].as_str()),
        (Some(6), Some("18\""))
    );
    assert_eq!(v["cost"], 9.0);
    let (code, out, _) = diemon(&["weapon", "machine-gun", "--size", "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("Use     4 (assumed)"), "{out}");
    let (code, _, err) = diemon(&["weapon", "gun"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs --size"), "{err}");
    let (code, _, err) = diemon(&["weapon", "gun", "--size", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("from 1 to 1000 inches"), "{err}");
    let (code, out, _) = diemon(&["weapon", "hand-weapon"]);
    assert_eq!(code, 0);
    assert!(out.contains("Use 2   Range CC   Damage 1d6"), "{out}");
}

#[test]
fn the_example_catalog_loads() {
    // README tour: body 2 + Move 2.5 + Half Mind 1 + a 2" Melee Weapon 4.
    let v = json(&[
        "unit",
        "show",
        "ogre",
        "--catalog",
        "catalogs/example.toml",
        "--json",
    ]);
    assert_eq!(v["cp"], 9.5);
    let v = json(&[
        "unit",
        "show",
        "veteran",
        "--catalog",
        "catalogs/example.toml",
        "--json",
    ]);
    assert_eq!(v["cp"], 8.0);
}

#[test]
fn squad_duel_by_budget_answers_with_the_squad_keys() {
    let v = json(&[
        "duel",
        "--budget",
        "44",
        "minifig-hand-weapon",
        "hero-hand-weapon",
        "--trials",
        "20000",
        "--json",
    ]);
    assert_eq!(v["units_a"], 7, "44 CP of 6 CP minifigs");
    assert_eq!(v["units_b"], 3, "44 CP of 13 CP Heroes");
    // Whole units: the sides field 42 and 39 CP, and say so.
    assert_eq!(
        (v["cp_a"].as_f64(), v["cp_b"].as_f64()),
        (Some(42.0), Some(39.0))
    );
    assert_eq!(v["cp_gap"].as_f64(), Some(3.0));
    assert_eq!(v["inert_a"], serde_json::json!([]));
    assert_eq!(v["inert_cp_b"].as_f64(), Some(0.0));
    for k in [
        "p_a_wins",
        "p_b_wins",
        "p_draw",
        "mean_turns",
        "survivors_a",
        "survivors_b",
        "cp_left_a",
        "cp_left_b",
    ] {
        assert!(v[k].is_number(), "{k}: {v}");
    }
    let sum = v["p_a_wins"].as_f64().unwrap()
        + v["p_b_wins"].as_f64().unwrap()
        + v["p_draw"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-12);
    // Same seed, same digits.
    let again = json(&[
        "duel",
        "--budget",
        "44",
        "minifig-hand-weapon",
        "hero-hand-weapon",
        "--trials",
        "20000",
        "--json",
        "--threads",
        "1",
    ]);
    assert_eq!(again["p_a_wins"], v["p_a_wins"]);
    assert_eq!(again["cp_left_b"], v["cp_left_b"]);
}

#[test]
fn squad_duel_flags_and_table() {
    let (code, out, _) = diemon(&[
        "duel",
        "--a",
        "minifig-grenadier*6",
        "--b",
        "automaton",
        "--distance",
        "8",
        "--b-target",
        "spread",
        "--trials",
        "5000",
        "-q",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("A: 6 x minifig-grenadier (7 CP each)  = 42 CP"),
        "{out}"
    );
    assert!(out.contains("both stood after 100 turns"), "{out}");
    // Issue 23: the grenade is thrown in squad battles, so nothing is priced but inert.
    assert!(!out.contains("priced but inert"), "{out}");
    // A part that does nothing is still named beside the figures.
    let (code2, out2, _) = diemon(&[
        "duel",
        "--a",
        "minifig+hand-weapon+bazooka*6",
        "--b",
        "automaton",
        "--trials",
        "100",
        "-q",
    ]);
    assert_eq!(code2, 0);
    assert!(
        out2.contains("minifig+hand-weapon+bazooka: Bazooka (Bastard Cannon) (0 CP): the Bastard Cannon and Launcher items are not modelled"),
        "{out2}"
    );
    assert!(out.contains("CP fielded: A 42, B "), "{out}");
    let (code, out, _) = diemon(&[
        "duel",
        "--a",
        "minifig-hand-weapon*2",
        "--b",
        "cannon-fodder*3",
        "--trials",
        "100",
        "--replay-trial",
        "7",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("trial 7 of seed 1"), "{out}");
    assert!(out.contains("turn 1: side "), "{out}");
    assert!(out.contains(" attacks B"), "narrated attacks: {out}");
    assert!(
        out.contains("      Skill d6: "),
        "dice under their attack: {out}"
    );
    // The narrated outcome is the run's: replaying the same trial twice agrees.
    let (_, again, _) = diemon(&[
        "duel",
        "--a",
        "minifig-hand-weapon*2",
        "--b",
        "cannon-fodder*3",
        "--trials",
        "100",
        "--replay-trial",
        "7",
    ]);
    assert_eq!(again, out);
}

#[test]
fn squad_units_can_be_equipped_with_named_items() {
    let v = json(&[
        "duel",
        "--budget",
        "30",
        "hero+heavy-weapon+body-armor",
        "minifig-hand-weapon",
        "--trials",
        "5000",
        "--json",
    ]);
    assert_eq!(v["units_a"], 2, "15 CP each: 11 + 3 + 1");
    assert_eq!(
        v["a"],
        "2 x hero+heavy-weapon+body-armor (15 CP each)  = 30 CP"
    );
    assert_eq!(v["units_b"], 5);
}

#[test]
fn squad_duel_bad_input_exits_2_with_a_hint() {
    for (args, want) in [
        (
            vec!["duel", "--budget", "44", "minifig-hand-weapon", "hero"],
            "hero carries no weapon (hint: armed versions: hero-hand-weapon; or equip it, e.g. \
             hero+hand-weapon)",
        ),
        (vec!["duel", "--a", "minifig-hand-weapon*x"], "not a count"),
        (vec!["duel", "--a", "nobody*2"], "no unit called \"nobody\""),
        (
            vec!["duel", "minifig-hand-weapon", "d6/2/1d6/4"],
            "is a SKILL/USE/DAMAGE/ARMOR stat line",
        ),
        (
            vec![
                "duel",
                "--budget",
                "2",
                "minifig-hand-weapon",
                "hero-hand-weapon",
            ],
            "more than the budget",
        ),
        (
            vec![
                "duel",
                "--budget",
                "44",
                "minifig-hand-weapon*2",
                "hero-hand-weapon",
            ],
            "--budget fills a side with one unit",
        ),
        (
            vec!["duel", "--a", "minifig-hand-weapon", "--a-use", "3"],
            "change a SKILL/USE",
        ),
    ] {
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn blast_answers_with_kills_by_ring_and_a_histogram() {
    let args = [
        "blast",
        "--formation",
        "grid:5x5",
        "--spacing",
        "1.5",
        "--distance",
        "18",
        "--trials",
        "20000",
        "--json",
    ];
    let v = json(&args);
    for k in ["mean_kills", "kills_per_shot", "kills_per_cp", "p_hit"] {
        assert!(v[k].is_number(), "{k}: {v}");
    }
    // A 3" Launcher fires three XSize 1 missiles a turn, less those not fired once every
    // figure is down.
    let shots = v["shots_per_trial"].as_f64().unwrap();
    assert!(shots > 2.5 && shots <= 3.0, "{v}");
    assert_eq!(v["ci_mean_kills"].as_array().unwrap().len(), 2);
    let hist = v["kills_hist"].as_array().unwrap();
    let total: f64 = hist.iter().map(|p| p[1].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let rings = v["by_ring"].as_array().unwrap();
    let by_ring: f64 = rings
        .iter()
        .map(|r| r["mean_kills"].as_f64().unwrap())
        .sum();
    assert!((by_ring - v["mean_kills"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(rings[0]["inches"], serde_json::json!([0, 2]));
    let mut one = args.to_vec();
    one.extend(["--threads", "1"]);
    assert_eq!(json(&one)["mean_kills"], v["mean_kills"]);
    let (code, out, _) = diemon(&["blast", "--trials", "50", "--replay-trial", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("shot 1:"), "{out}");
    assert!(out.contains(" killed, "), "{out}");
}

#[test]
fn blast_bad_input_exits_2_with_a_hint() {
    for (args, want) in [
        (vec!["blast", "--weapon", "thrown"], "needs --use"),
        (vec!["blast", "--use", "3"], "sets a thrown object's Use"),
        (
            vec!["blast", "--size", "1", "--xsize", "2"],
            "XSize 2 is too big",
        ),
        (
            vec!["blast", "--formation", "blob:3"],
            "expected grid:ROWSxCOLS",
        ),
        (
            vec!["blast", "--support", "3"],
            "at most the Weapon Size, 3",
        ),
        (vec!["blast", "--target", "nobody"], "no unit called"),
        (
            vec!["blast", "--distance", "-4"],
            "expected 0 to 1000 inches",
        ),
    ] {
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn burst_gives_exact_jam_chances() {
    // Ch. 8.3, d6, 3 shots at -1, -2, -3: P(jam) = 1/6 + 5/6 * 2/6.
    let v = json(&["burst", "--shots", "3", "--json"]);
    let want = 1.0 / 6.0 + 5.0 / 6.0 * 2.0 / 6.0;
    assert!((v["p_jam"].as_f64().unwrap() - want).abs() < 1e-12, "{v}");
    let (code, out, _) = diemon(&["burst", "--shots", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("     1       -1       0.000000"), "{out}");
    let (code, _, err) = diemon(&["burst", "--skill", "d20"]);
    assert_eq!(code, 2);
    assert!(err.contains("d4 to d12"), "{err}");
}

#[test]
fn blast_sweeps_an_arc_with_automatic_weapons() {
    let v = json(&[
        "blast",
        "--weapon",
        "machine-gun",
        "--size",
        "2",
        "--arc",
        "2",
        "--distance",
        "6",
        "--formation",
        "line:8",
        "--trials",
        "20000",
        "--json",
    ]);
    // Use 4 at -2: only a natural 6 hits; a natural 1 jams (Ch. 8.3).
    assert!(
        (v["p_hit"].as_f64().unwrap() - 1.0 / 6.0).abs() < 0.01,
        "{v}"
    );
    assert!(v["p_jam"].as_f64().unwrap() > 0.25, "{v}");
    assert_eq!(v["by_ring"], serde_json::json!([]));
    let (code, out, _) = diemon(&[
        "blast",
        "--weapon",
        "flamegun",
        "--distance",
        "3",
        "--formation",
        "cluster:7",
        "--trials",
        "5000",
        "-q",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Fire hits on survivors"), "{out}");
    for (args, want) in [
        (
            vec!["blast", "--weapon", "blast-gun", "--arc", "2"],
            "fixed Firing Arc of 1",
        ),
        (
            vec!["blast", "--arc", "2"],
            "--arc and --burst are for automatic weapons",
        ),
        (
            vec!["blast", "--weapon", "flame-thrower", "--burst", "3"],
            "only a MachineGun fires bursts",
        ),
        (
            vec!["blast", "--weapon", "shotgun", "--xsize", "2"],
            "are for Explosives",
        ),
    ] {
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn blast_with_a_wall_reports_its_fall() {
    let v = json(&["blast", "--wall", "3d10@0,2", "--trials", "20000", "--json"]);
    let p = v["p_wall_destroyed"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0, "{v}");
    assert!(json(&["blast", "--trials", "100", "--json"])["p_wall_destroyed"].is_null());
    for bad in ["3d10", "3d10@x,2", "d6 skill@0,0", "3d10@0"] {
        let (code, _, err) = diemon(&["blast", "--wall", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(err.contains("hint: write ARMOR@X,Y"), "{bad}: {err}");
    }
}

#[test]
fn blast_chain_reactions_and_policies() {
    // Carried unstable Explosives set each other off (Ch. 8.4): more kills than without.
    let base = ["blast", "--trials", "20000", "--json"];
    let plain = json(&base)["mean_kills"].as_f64().unwrap();
    let mut args = base.to_vec();
    args.extend(["--carrying", "unstable"]);
    let v = json(&args);
    assert!(v["mean_kills"].as_f64().unwrap() > plain, "{v}");
    assert!(v["chain_detonations_per_trial"].as_f64().unwrap() > 0.0);
    // Each policy and delivery shows in the figures it governs.
    let run = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        json(&a)
    };
    // No duds when the defender never declares them; Critical Failures still happen.
    let v = run(&["--aim", "densest", "--scatter", "short", "--dud", "never"]);
    assert_eq!(v["duds_per_trial"], 0.0, "{v}");
    assert!(json(&base)["duds_per_trial"].as_f64().unwrap() > 0.0);
    // A 2" Cannon fired by a Gunner (d8) with one supporter: Use 5, one shot a volley.
    let v = run(&[
        "--weapon",
        "cannon",
        "--size",
        "2",
        "--xsize",
        "2",
        "--shooter",
        "gunner",
        "--support",
        "1",
    ]);
    assert_eq!(
        (v["action_die"].as_str(), v["per"].as_str()),
        (Some("d8"), Some("volley"))
    );
    assert!(v["shots_per_trial"].as_f64().unwrap() <= 1.0, "{v}");
    // A Rocket at a random scatter of 20.
    let v = run(&[
        "--weapon",
        "rocket",
        "--xsize",
        "3",
        "--formation",
        "scatter:20:8",
    ]);
    assert_eq!(v["figures"], 20);
    // Concussion dice push and do no Damage: nobody dies, many are Knocked Back.
    let v = run(&["--variant", "concussion", "--formation", "column:6"]);
    assert_eq!(v["mean_kills"], 0.0, "{v}");
    assert!(v["knocked_back_per_trial"].as_f64().unwrap() > 0.0, "{v}");
}

#[test]
fn out_of_scale_numbers_are_refused_not_run() {
    for (args, want) in [
        (
            vec!["blast", "--size", "1000000000"],
            "Weapon Size of 1 to 100",
        ),
        (
            vec!["blast", "--weapon", "machine-gun", "--size", "0"],
            "Weapon Size of 1 to 100",
        ),
        (
            vec!["blast", "--xsize", "65", "--size", "100"],
            "at most 64",
        ),
        (
            vec!["blast", "--weapon", "machine-gun", "--arc", "99"],
            "full circle",
        ),
        (
            vec![
                "duel",
                "--a",
                "minifig-hand-weapon",
                "--distance",
                "4000000000",
            ],
            "0 to 1000",
        ),
        (
            vec!["duel", "--a", "minifig-hand-weapon", "--max-turns", "0"],
            "1 to 10000",
        ),
    ] {
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Issue 21: the Overskill die is the player's pick and a sum draws the same faces however
/// it is written, so the two spellings of one weapon give identical digits.
#[test]
fn damage_written_in_either_order_gives_identical_digits() {
    let run = |damage: &str| {
        let mut v = json(&[
            "duel",
            &format!("d10/3/{damage}/4"),
            "d6/2/1d6/12",
            "--first",
            "a",
            "--trials",
            "100000",
            "--json",
        ]);
        let o = v.as_object_mut().unwrap();
        for k in ["a", "trials_per_sec", "threads"] {
            o.remove(k);
        }
        v
    };
    assert_eq!(run("1d10+1d4"), run("1d4+1d10"));
}

/// Issue 22: a catalog weapon of Weapon Size 1001 passed `unit show` and made `duel` panic;
/// now both refuse it with the same message (exit 2), as `weapon` does.
#[test]
fn a_weapon_size_past_1000_is_refused_everywhere_alike() {
    let dir = crate::temp("cli-big-weapon");
    let cat = dir.join("big.toml");
    std::fs::write(
        &cat,
        "[big]\nname = \"Big\"\nsource = \"t\"\nsize = 1\nstructure = \"0\"\narmor = \"4\"\n\
         move = 5\nskill = \"d6\"\nweapons = [{ kind = \"melee-weapon\", size = 1001 }]\n",
    )
    .unwrap();
    let c = cat.to_str().unwrap();
    for args in [
        vec!["unit", "show", "big", "--catalog", c],
        vec![
            "duel",
            "--a",
            "big",
            "--b",
            "minifig-hand-weapon",
            "--catalog",
            c,
        ],
        vec!["weapon", "melee-weapon", "--size", "1001"],
    ] {
        let (code, _, err) = diemon(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("Weapon Size from 1 to 1000"),
            "{args:?}: {err}"
        );
    }
}

/// Issue 22's malformed inputs, one row each: (command line, what the message must say).
/// Every one exits 2 at once with one clear message.
#[test]
fn malformed_inputs_exit_2_with_one_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["duel", "--threads", "10000"],
            "--threads 10000: expected at most",
        ),
        (
            &["blast", "--threads", "4294967295"],
            "--threads 4294967295: expected at most",
        ),
        (
            &["marks", "--attr", "3,3", "--mc", "100", "--threads", "99"],
            "--threads 99",
        ),
        (
            &["run", "--threads", "100000"],
            "--threads 100000: expected at most",
        ),
        (
            &["marks", "--skill", "4294967295"],
            "4294967295 dice: at most 60",
        ),
        (
            &["marks", "--superpower", "4294967294"],
            "4294967294 dice: at most 60",
        ),
        (
            &["marks", "--super-attr", "1,4294967293"],
            "4294967294 dice: at most 60",
        ),
        (
            &["weapon", "gun", "--size", "5000"],
            "Weapon Size from 1 to 1000",
        ),
        (
            &["duel", "--trials", "-1"],
            "expected a whole number from 1 to 1e15",
        ),
        (
            &["duel", "--trials", "0"],
            "expected a whole number from 1 to 1e15",
        ),
        (
            &["marks", "--attr", "3,3", "--mc", "0"],
            "'--trials <N>': expected a whole number from 1",
        ),
        (
            &["dist", "2d6", "--mc", "-1"],
            "'--trials <N>': expected a whole number from 1",
        ),
        (
            &["dist", "99999999999999999999d6"],
            "found \"99999999999999999999\"",
        ),
        (
            &["dist", "d6 skill bless 999d20"],
            "1:16: expected fewer Blessings on one die, found \"999\"",
        ),
        (
            &["marks", "--skill", "99999999999999999999"],
            "got \"99999999999999999999\" (a pool holds at most 60 dice)",
        ),
        (
            &[
                "marks",
                "--attr",
                "3,3",
                "--vs",
                "skill=99999999999999999999",
            ],
            "skill=99999999999999999999: expected a whole number from 0 to 4294967295",
        ),
        (
            &["blast", "--target-ci", "13"],
            "--target-ci 13: expected a half-width above 0 and below 12.5 (kills",
        ),
    ];
    for (args, says) in cases {
        let start = std::time::Instant::now();
        let (code, _, err) = diemon(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
        assert_eq!(
            err.matches("error:").count(),
            1,
            "{args:?}: one message: {err}"
        );
        assert!(
            start.elapsed().as_secs() < 5,
            "{args:?} took {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn an_option_the_command_does_not_use_is_refused() {
    // Issue 24: `-o` was silently ignored where nothing used it.
    for (args, says) in [
        (
            &["unit", "list", "-o", "stacking=separate"][..],
            "uses no rule option",
        ),
        (
            &["weapon", "gun", "--size", "2", "-o", "armor_tie=survive"][..],
            "uses no rule option",
        ),
        (
            &["marks", "--attr", "3,3", "-o", "armor_tie=survive"][..],
            "only the marks_*",
        ),
        (
            &["duel", "--trials", "10", "-o", "marks_tie=defender"][..],
            "change only `diemon marks`",
        ),
    ] {
        let (code, _, err) = diemon(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // The old flag names still work beside the new ones.
    let (code, out, _) = diemon(&["dist", "2d10 exp", "--vs", "4"]);
    assert_eq!(code, 0);
    let (_, out2, _) = diemon(&["dist", "2d10 exp", "--armor", "4"]);
    assert_eq!(out, out2);
}

#[test]
fn completions_and_man_pages_come_from_the_commands() {
    // Issue 24: generated by clap's own crates, so they carry every command and flag.
    let (code, out, _) = diemon(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("_diemon") && out.contains("--a-formation"),
        "{out}"
    );
    let (code, out, _) = diemon(&["man", "duel"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(".TH diemon-duel 1") && out.contains("a\\-formation"),
        "{out}"
    );
    let (code, _, err) = diemon(&["man", "dule"]);
    assert_eq!(code, 2);
    assert!(err.contains("the commands are"), "{err}");
}

#[test]
fn issue_43_a_table_is_drawn_and_a_broken_layout_named_at_its_line() {
    // A named layout: the same seed, the same table; the town's buildings on the map.
    let (code, out, _) = diemon(&["table", "town", "--width", "24", "--depth", "24"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("table town: 24\" x 24\", seed 1, 2 pieces of terrain"),
        "{out}"
    );
    assert!(out.contains("  ....#######..#######....\n"), "{out}");
    let v = json(&["table", "scattered", "--seed", "3", "--json"]);
    assert_eq!(v, json(&["table", "scattered", "--seed", "3", "--json"]));
    assert!(v["terrain"].as_array().is_some_and(|t| t.len() > 10), "{v}");
    // A layout file with two mistakes: both named, each at its line and column, exit 2.
    let dir = std::env::temp_dir().join(format!("diemon-cli-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.toml");
    std::fs::write(
        &f,
        "width = 24\ndepth = 24\n[[terrain]]\nkind = \"bulding\"\ncorners = [[1, 8], [4, 8], [4, 11]]\n[[terrain]]\nkind = \"woods\"\ncorners = [[10, 8], [30, 8], [14, 11]]\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let (code, _, err) = diemon(&["table", path]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{path}:4:8: no terrain kind \"bulding\"")),
        "{err}"
    );
    assert!(err.contains("did you mean `building`?"), "{err}");
    assert!(
        err.contains(&format!("{path}:8:11: corner (30, 8) lies off")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // Neither a layout nor a file.
    let (code, _, err) = diemon(&["table", "twon"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean the layout `town`?"), "{err}");
}

#[test]
fn issue_43_a_distance_on_a_table_sets_its_fronts_apart_with_room_behind() {
    // --distance 12 on a named table: 12" between the fronts and 12" (--room) behind each,
    // so the table is 36" deep, with its terrain laid between the fronts.
    let (code, out, _) = diemon(&["table", "town", "--distance", "12"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("table town: 48\" x 36\""), "{out}");
    let rows: Vec<&str> = out.lines().skip(1).take(36).collect();
    assert_eq!(rows[11].trim().chars().filter(|&c| c == 'b').count(), 48);
    // The fronts at 12" and 24" along; the one row of blocks centred between them.
    assert!(!rows[14].contains('#') && rows[15].contains('#'), "{out}");
    assert!(rows[20].contains('#') && !rows[21].contains('#'), "{out}");
    let (code, out, _) = diemon(&[
        "duel",
        "--a",
        "minifig-rifle*2",
        "--b",
        "minifig-hand-weapon*3",
        "--table",
        "scattered",
        "--distance",
        "12",
        "--trials",
        "200",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("table scattered 48\" x 36\" (table seed 1), fronts 12\" apart"),
        "{out}"
    );
    // Fronts further apart than the table is deep: exit 2, with the depth that would do.
    let (code, _, err) = diemon(&[
        "duel",
        "--a",
        "minifig-rifle",
        "--b",
        "minifig-hand-weapon",
        "--table",
        "open",
        "--table-depth",
        "30",
        "--distance",
        "30",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("fronts 30\" apart leave no deployment zone"),
        "{err}"
    );
    assert!(err.contains("--table-depth 31 or more"), "{err}");
}

#[test]
fn issue_43_a_battle_on_a_table_is_replayed_to_a_map() {
    // A duel on the scattered table: the line names the table and the objective.
    let (code, out, _) = diemon(&[
        "duel",
        "--a",
        "minifig-rifle*2",
        "--b",
        "minifig-hand-weapon*3",
        "--table",
        "scattered",
        "--objective",
        "hold:2",
        "--trials",
        "200",
        "--quiet",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "table scattered 48\" x 48\" (table seed 1), fronts 36\" apart, objective hold:2"
        ),
        "{out}"
    );
    // Replayed with --map: the narration, and an SVG of every turn.
    let dir = std::env::temp_dir().join(format!("diemon-cli-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("battle.svg");
    let path = f.to_str().unwrap();
    let args = [
        "duel",
        "--a",
        "minifig-rifle*2",
        "--b",
        "minifig-hand-weapon*3",
        "--table",
        "town",
        "--replay-trial",
        "3",
        "--map",
        path,
    ];
    let (code, out, err) = diemon(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("map written to {path}")), "{out}");
    let svg = std::fs::read_to_string(&f).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains(r#"<g class="turn" data-turn="1">"#));
    assert_eq!(
        svg.matches("<polygon").count(),
        2 + 20,
        "two zones, the town's 20 blocks"
    );
    // The same trial, the same map.
    diemon(&args);
    assert_eq!(std::fs::read_to_string(&f).unwrap(), svg);
    std::fs::remove_dir_all(&dir).unwrap();
    // A map needs a replayed trial on a table; an objective needs a table.
    let (code, _, err) = diemon(&[
        "duel",
        "--a",
        "minifig-rifle",
        "--b",
        "minifig-rifle",
        "--map",
        "x.svg",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("hint: add --replay-trial N and --table LAYOUT"),
        "{err}"
    );
    let (code, _, err) = diemon(&[
        "duel",
        "--a",
        "minifig-rifle",
        "--b",
        "minifig-rifle",
        "--objective",
        "hold:2",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--objective hold:2 is fought on a table"),
        "{err}"
    );
    // Every conduct and objective a table adds is refused off one, never ignored.
    for (flag, value, said) in [
        ("--b-conduct", "cover", "--b-conduct cover walks on a table"),
        ("--a-conduct", "flank", "--a-conduct flank walks on a table"),
        (
            "--objective",
            "edge",
            "--objective edge is fought on a table",
        ),
    ] {
        let (code, _, err) = diemon(&[
            "duel",
            "--a",
            "minifig-rifle",
            "--b",
            "minifig-rifle",
            flag,
            value,
        ]);
        assert_eq!(code, 2, "{flag} {value}");
        assert!(err.contains(said), "{err}");
    }
}
