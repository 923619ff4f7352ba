//! Compiles the shim (`shim/analyze_shim.cpp`) against the headers of the Luau that the
//! `luau-analysis` crate builds; its libraries are linked through that crate.

fn main() {
    let root = std::path::PathBuf::from(
        std::env::var_os("DEP_LUAU_ANALYSIS_ROOT").expect("luau-analysis names its sources"),
    );
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=shim/analyze_shim.cpp");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .warnings(false)
        .define("LUA_VECTOR_SIZE", "3")
        .define("LUA_API", "extern \"C\"")
        .define("LUACODE_API", "extern \"C\"");
    if std::env::var("PROFILE").as_deref() != Ok("release") {
        build.define("LUAU_ENABLE_ASSERT", None);
    } else {
        // Without NDEBUG, Luau's headers turn its assertions on in release builds too.
        build.define("NDEBUG", None);
    }
    for lib in ["Analysis", "Config", "VM", "Compiler", "Ast", "Common"] {
        build.include(root.join(lib).join("include"));
    }
    build
        .file("shim/analyze_shim.cpp")
        .compile("luau_analyze_shim");
}
