//! Tests of `engine/shell/seccomp.rs`, compiled as its child module `tests`: each refused
//! call is made, with arguments the kernel would reject another way (a null path, a closed
//! descriptor), in a forked child under the filter, so only the filter's own answer passes.

use super::*;

/// One call: its number, its second argument (the first is always -1) and the answer
/// it must get.
type Call = (libc::c_long, libc::c_long, i32);

/// The calls and the answer each must get under the filter.
fn refused() -> Vec<Call> {
    // A mode or owner change "succeeds" (answer 0) without being made.
    let mut calls: Vec<Call> = MODE_OWNER.iter().map(|nr| (*nr, 0, 0)).collect();
    calls.extend(ATTRIBUTES.iter().map(|nr| (*nr, 0, libc::EOPNOTSUPP)));
    calls.push((libc::SYS_setsid, 0, libc::EPERM));
    calls.push((libc::SYS_io_uring_setup, 0, libc::EACCES));
    calls.push((libc::SYS_open_by_handle_at, 0, libc::EACCES));
    for nr in [
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_unshare,
        libc::SYS_setns,
        // Every flag set, namespaces among them (EINVAL unfiltered).
        libc::SYS_clone,
    ] {
        calls.push((nr, 0, libc::EPERM));
    }
    calls.push((libc::SYS_clone3, 0, libc::ENOSYS));
    // Setting a file's flags, on a closed descriptor (EBADF unfiltered).
    for request in SET_FLAGS {
        calls.push((libc::SYS_ioctl, *request as libc::c_long, libc::EPERM));
    }
    // Acting on process -1 (or a kind of target -1): ESRCH or EINVAL unfiltered.
    for (nr, _) in SELF_ONLY {
        calls.push((*nr, 0, libc::EPERM));
    }
    // A socket of no family (-1); with the network only IPv4 and IPv6 pass.
    calls.push((libc::SYS_socket, 0, libc::EACCES));
    calls
}

/// Runs `calls` in a child under the filter; returns the first call that got another
/// answer (`None`: every call was refused as it should be).
fn first_wrong(network: bool, calls: &[Call]) -> Option<libc::c_long> {
    first_wrong_from(network, -1, calls)
}

/// As [`first_wrong`], with `first` as every call's first argument.
fn first_wrong_from(network: bool, first: libc::c_long, calls: &[Call]) -> Option<libc::c_long> {
    let filter = Filter::new(network);
    // SAFETY: the child makes only system calls on data built before the fork, then exits.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        unsafe {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || filter.install().is_err()
            {
                libc::_exit(255);
            }
            for (i, (nr, second, want)) in calls.iter().enumerate() {
                // A closed descriptor or no process (-1) and null pointers: unfiltered,
                // each call fails with EBADF, EFAULT, ESRCH or EINVAL, never with the
                // filter's answer.
                let rc = libc::syscall(*nr, first, *second, 0, 0, 0);
                let errno = *libc::__errno_location();
                let answered = match *want {
                    0 => rc == 0,
                    _ => rc == -1 && errno == *want,
                };
                if !answered {
                    libc::_exit(i as i32 + 1);
                }
            }
            libc::_exit(0);
        }
    }
    let mut status = 0;
    // SAFETY: waits for the child just forked.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert!(libc::WIFEXITED(status), "the child died: {status}");
    match libc::WEXITSTATUS(status) {
        0 => None,
        255 => panic!("the filter could not be installed"),
        i => Some(calls[i as usize - 1].0),
    }
}

#[test]
fn mode_owner_and_attribute_changes_are_refused_with_or_without_the_network() {
    for network in [false, true] {
        assert_eq!(first_wrong(network, &refused()), None, "network {network}");
    }
}

#[test]
fn unfiltered_calls_get_the_kernels_own_answer() {
    // The check above is only worth something if the same calls fail otherwise: with the
    // network, `socket` of a family the filter lets through reaches the kernel.
    assert_eq!(
        first_wrong_from(
            true,
            libc::AF_INET6 as libc::c_long,
            &[(libc::SYS_socket, -1, libc::EACCES)]
        ),
        Some(libc::SYS_socket)
    );
    // Another ioctl (TCGETS) reaches the kernel, which answers EBADF.
    assert_eq!(
        first_wrong(false, &[(libc::SYS_ioctl, 0x5401, libc::EPERM)]),
        Some(libc::SYS_ioctl)
    );
}
