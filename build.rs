//! Rebuild when the bundled toolboxes change: `include_dir!` cannot tell cargo which files it
//! read, so without this an edited or added tool would not reach the binary.

fn main() {
    println!("cargo:rerun-if-changed=toolboxes");
}
