use codemode::assets::{AssetIndex, Origin, Root};
use std::sync::Arc;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let root = Root::disk(Origin::World, std::path::Path::new(&a[1])).unwrap();
    let roots = Arc::new(vec![root]);
    let i = AssetIndex::build(roots);
    println!("{}", i.tools.len());
}
