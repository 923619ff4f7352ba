//! The `install` capability: `install.toolbox(name)` copies a library toolbox into the world.

use mlua::{Lua, Table};

use crate::runtime::{with_state, HostError};
use crate::search::install::{install_toolbox, InstallError};

use super::search::registry;

/// Builds the read-only `install` table.
pub fn module(lua: &Lua) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set(
        "toolbox",
        lua.create_function(|lua, name: mlua::Value| {
            let mlua::Value::String(name) = name else {
                return Err(HostError::hinted(
                    "tools.install needs a toolbox name",
                    "tools.install('text') copies the library toolbox 'text' into the world",
                )
                .into_lua());
            };
            let name = name.to_string_lossy();
            let index = with_state(lua, |s| s.index.clone())?;
            let out = lua.create_table()?;
            match install_toolbox(&index, &name) {
                Ok(path) => {
                    registry(lua)?.reload();
                    out.raw_set("ok", true)?;
                    out.raw_set("path", path.display().to_string())?;
                    out.raw_set("toolbox", name)?;
                }
                Err(e) => {
                    let next = match &e {
                        InstallError::Exists { .. } => {
                            "the world's copy is already the one tools use; edit it in place"
                        }
                        InstallError::Unknown(_) => {
                            "tools.search(query) shows library toolboxes with their install call"
                        }
                        _ => "check the world directory is writable and has room",
                    };
                    out.raw_set("ok", false)?;
                    out.raw_set("error", format!("{e}; {next}"))?;
                }
            }
            Ok(out)
        })?,
    )?;
    t.set_readonly(true);
    Ok(t)
}
