//! Tests of `engine/auth/agents.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn added_agents_verify_revoked_ones_do_not_without_a_new_agents_value() {
    let world = tempfile::tempdir().unwrap();
    let mut file = AgentsFile::load(world.path()).unwrap();
    let token = file.add("ci", "readonly").unwrap();
    let other = file.add("dev", "default").unwrap();
    file.save(world.path()).unwrap();
    let agents = Agents::new(world.path());
    let agent = agents.verify(&token).unwrap();
    assert_eq!(
        (agent.name.as_str(), agent.profile.as_str()),
        ("ci", "readonly")
    );
    assert!(agents.verify("cm_nope").is_none());
    file.revoke("ci").unwrap();
    file.save(world.path()).unwrap();
    assert!(agents.verify(&token).is_none());
    assert_eq!(agents.verify(&other).unwrap().name, "dev");
}

#[test]
fn the_file_is_private_and_holds_no_token() {
    use std::os::unix::fs::PermissionsExt;
    let world = tempfile::tempdir().unwrap();
    let mut file = AgentsFile::default();
    let token = file.add("ci", "default").unwrap();
    file.save(world.path()).unwrap();
    let path = world.path().join(AGENTS_FILE);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(&token[3..]), "{text}");
    assert!(text.contains(&hash_token(&token)));
}

#[test]
fn a_broken_file_lets_nobody_in_until_fixed() {
    let world = tempfile::tempdir().unwrap();
    let mut file = AgentsFile::default();
    let token = file.add("ci", "default").unwrap();
    file.save(world.path()).unwrap();
    let agents = Agents::new(world.path());
    let path = world.path().join(AGENTS_FILE);
    std::fs::write(&path, "{not json").unwrap();
    assert!(agents.verify(&token).is_none());
    assert!(agents.count().unwrap_err().contains("not an agents file"));
    file.save(world.path()).unwrap();
    assert!(agents.verify(&token).is_some());
}

#[test]
fn names_and_duplicates_are_refused_with_the_fix() {
    let mut file = AgentsFile::default();
    assert!(matches!(file.add("a b", "x"), Err(AuthError::BadName(_))));
    file.add("a", "x").unwrap();
    let again = file.add("a", "x").unwrap_err().to_string();
    assert!(again.contains("codemode agent revoke a"), "{again}");
    assert!(matches!(file.revoke("zz"), Err(AuthError::Unknown(_))));
}
