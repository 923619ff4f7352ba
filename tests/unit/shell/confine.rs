//! Tests of `engine/shell/confine.rs`, compiled as its child module `tests` (they reach its
//! private items).

use super::*;

#[test]
fn a_short_kernel_refuses_commands_unless_the_profile_opts_in() {
    for abi in [0, 1, 3, 5] {
        let short = Support { abi };
        let e = admit(short, false, "wc").unwrap_err().to_string();
        assert!(
            e.contains("shell.run refused 'wc'") && e.contains("shellUnconfined"),
            "{abi}: {e}"
        );
        assert!(admit(short, true, "wc").is_ok());
    }
    let e = admit(Support { abi: 0 }, false, "wc")
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not enforce Landlock"), "{e}");
    let e = admit(Support { abi: 3 }, false, "wc")
        .unwrap_err()
        .to_string();
    assert!(e.contains("ABI 3") && e.contains("TCP"), "{e}");
    assert!(admit(Support { abi: FULL_ABI }, false, "wc").is_ok());
    assert!(admit(Support { abi: 7 }, false, "wc").is_ok());
}

#[test]
fn a_world_inside_a_readable_system_folder_is_refused() {
    let e = refuse_world_under_system(Path::new("/etc/some-world")).unwrap_err();
    assert!(
        e.contains("lies inside /etc") && e.contains("keep the world outside"),
        "{e}"
    );
    let usr = Path::new("/usr/share");
    assert!(refuse_world_under_system(usr).is_err());
    let tmp = tempfile::tempdir().unwrap();
    assert!(refuse_world_under_system(tmp.path()).is_ok());
}

#[test]
fn start_up_and_check_say_what_a_short_kernel_means_for_the_grant() {
    assert_eq!(Support { abi: FULL_ABI }.warning(false), None);
    let refused = Support { abi: 0 }.warning(false).unwrap();
    assert!(
        refused.contains("shell.run refuses every command") && refused.contains("shellUnconfined"),
        "{refused}"
    );
    let opted = Support { abi: 2 }.warning(true).unwrap();
    assert!(
        opted.contains("ABI 2") && opted.contains("start anyway"),
        "{opted}"
    );
}
