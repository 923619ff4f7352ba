//! The `codemode` binary.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
