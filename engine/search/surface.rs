//! The functions of `tools` itself as searchable assets: an agent that asks how to "save a
//! new tool" finds `tools.create`, described from the same declarations as `tools.help`.

use super::document::{AssetDoc, AssetType, Role};
use crate::types::surface_functions;

/// One doc per function of `tools` (`tools.create`, ...).
pub(crate) fn surface_docs() -> impl Iterator<Item = AssetDoc> {
    surface_functions().iter().map(|f| AssetDoc {
        key: format!("function:{}", f.identity),
        asset_type: AssetType::Function,
        identity: f.identity.clone(),
        name: f.name.clone(),
        toolbox: "tools".to_string(),
        from: "surface".to_string(),
        installed: true,
        registered: true,
        description: f.description.clone(),
        signature: None,
        fields: vec![
            (Role::Name, f.name.clone()),
            (Role::Tag, String::new()),
            (Role::Description, f.description.clone()),
            (Role::Argument, f.signature.clone()),
            (Role::Returns, String::new()),
            (Role::Example, f.examples.join("\n")),
            (Role::Readme, String::new()),
        ],
        context: String::new(),
        title: None,
        arguments_mean: true,
    })
}
