//! The `codemode` binary: the command line, which lives in the library (`engine/cli/`).

fn main() -> std::process::ExitCode {
    codemode::main()
}
