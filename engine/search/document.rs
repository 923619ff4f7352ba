//! What one asset (tool, toolbox or workflow) contributes to the search index.

use serde::Serialize;

use super::meaning::Meaning;
use crate::assets::{AssetIndex, BoxKind, Origin, ToolEntry};
use crate::upstream::{ServerView, UpstreamTool};

/// At most this much of a README is indexed (bounded work per asset).
const MAX_README_CHARS: usize = 20_000;

/// The weight of an asset's context in its meaning vector, against 1 for its own text
/// (see [`AssetDoc::meaning`]).
const CONTEXT_SHARE: f32 = 1.0;

/// Cosine from which a word of the vocabulary is near a word of a server's name (MiniLM's
/// table): "memory" is near "remembering" and "memories" (0.65 or more), "time" near no
/// other word.
const NEAR_NAME: f32 = 0.65;

/// The words nearest the words of a server's toolbox name (see [`NEAR_NAME`]).
fn server_words(view: &ServerView) -> Vec<String> {
    let name = super::words::name_words(&view.name).to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for word in name.split(' ').filter(|w| w.len() >= 3) {
        for near in super::embed::StaticModel::minilm().neighbours(word, NEAR_NAME) {
            if !out.contains(&near) {
                out.push(near);
            }
        }
    }
    out
}

/// The context an upstream server's tools are read in: its toolbox name as words, and
/// its title when it gave one.
fn server_context(view: &ServerView) -> String {
    let mut context = super::words::name_words(&view.name);
    if let Some(title) = view.about().and_then(|a| a.title.as_deref()) {
        context.push('\n');
        context.push_str(title);
    }
    context
}

/// Which kind of asset a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum AssetType {
    /// A `<name>.tool/` folder.
    Tool,
    /// A plain toolbox.
    Toolbox,
    /// A workflow toolbox (entry tool `start`).
    Workflow,
    /// A function of `tools` itself (`tools.create`).
    Function,
}

/// The searchable roles of an asset, in the order they rank when scores tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Role {
    /// The name or identity.
    Name,
    /// A `.metadata` tag.
    Tag,
    /// The description (`--!desc`, or the toolbox's purpose).
    Description,
    /// An argument's name or description.
    Argument,
    /// The return description.
    Returns,
    /// An `--!example` line.
    Example,
    /// The README.
    Readme,
    /// No shared word: ranked by meaning only.
    Meaning,
}

impl Role {
    /// The file a role's text is read from.
    pub(crate) fn file(self, asset: AssetType) -> &'static str {
        match (self, asset) {
            (Role::Tag, _) => ".metadata",
            (Role::Readme, _) => "README.md",
            (Role::Name, AssetType::Tool) => "init.luau",
            (Role::Name, _) => "folder name",
            (Role::Description, AssetType::Tool) => "init.luau",
            (Role::Description, _) => "README.md",
            (Role::Meaning, _) => "",
            _ => "init.luau",
        }
    }
}

/// The text and facts of one asset, as indexed. Equal docs need no re-indexing.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AssetDoc {
    /// Unique key: `tool:<identity>` or `toolbox:<name>`.
    pub(crate) key: String,
    /// Tool, toolbox or workflow.
    pub(crate) asset_type: AssetType,
    /// `<box>.<name>` for a tool, the toolbox name otherwise.
    pub(crate) identity: String,
    /// The tool's or toolbox's name.
    pub(crate) name: String,
    /// The toolbox it belongs to (itself for a toolbox).
    pub(crate) toolbox: String,
    /// `world`, `library`, or `mcp:<server>` for a tool of an upstream MCP server.
    pub(crate) from: String,
    /// True when the world holds this asset (or, for an upstream server, configures it).
    pub(crate) installed: bool,
    /// True when the registry holds a callable function (toolboxes: always).
    pub(crate) registered: bool,
    /// One line for listings.
    pub(crate) description: String,
    /// How a tool is called after `tools.<box>.` (`name(a: T): R`); none for toolboxes.
    pub(crate) signature: Option<String>,
    /// Searchable text by role.
    pub(crate) fields: Vec<(Role, String)>,
    /// What the asset belongs to, when its own text is read in that light: for a tool of
    /// an upstream server, the server (its toolbox name and title; see
    /// [`AssetDoc::meaning`]). Empty otherwise.
    pub(crate) context: String,
    /// Its title, when it has one: an upstream tool's name for people (an API
    /// operation's `summary`), indexed as its name is, and a request that spells it
    /// names the tool.
    pub(crate) title: Option<String>,
    /// Whether its arguments' text is part of its meaning (see
    /// [`AssetDoc::meaning_text`]). Not for an operation of an HTTP API: its parameters'
    /// documentation is often longer than the operation's own and shared by hundreds of
    /// operations ("The account owner of the repository"), so in a mean of token vectors
    /// it would outweigh what the operation does. It is still found by its words.
    pub(crate) arguments_mean: bool,
}

impl AssetDoc {
    /// The doc of one tool.
    pub(crate) fn tool(entry: &ToolEntry) -> AssetDoc {
        let m = &entry.meta();
        let args: Vec<String> = m
            .args
            .iter()
            .map(|a| format!("{} {}", a.name, a.description))
            .collect();
        let readme = entry.readme().unwrap_or("");
        let readme = match readme.char_indices().nth(MAX_README_CHARS) {
            Some((at, _)) => &readme[..at],
            None => readme,
        };
        AssetDoc {
            key: format!("tool:{}", m.identity),
            asset_type: AssetType::Tool,
            identity: m.identity.clone(),
            name: m.name.clone(),
            toolbox: m.toolbox.clone(),
            from: origin_name(entry.origin).to_string(),
            installed: entry.origin == Origin::World,
            registered: entry.is_registered(),
            description: m.description.clone(),
            signature: m.signature.clone(),
            fields: vec![
                (Role::Name, m.name.clone()),
                (Role::Tag, m.tags.join(" ")),
                (Role::Description, m.description.clone()),
                (Role::Argument, args.join("\n")),
                (
                    Role::Returns,
                    m.returns
                        .as_ref()
                        .map(|r| r.description.clone())
                        .unwrap_or_default(),
                ),
                (Role::Example, m.examples.join("\n")),
                (Role::Readme, readme.to_string()),
            ],
            context: String::new(),
            title: None,
            arguments_mean: true,
        }
    }

    /// The doc of one toolbox name (the folder of highest precedence speaks for it).
    pub(crate) fn toolbox(index: &AssetIndex, name: &str) -> Option<AssetDoc> {
        let folder = index.toolbox(name)?;
        let asset_type = match folder.kind {
            BoxKind::Toolbox => AssetType::Toolbox,
            BoxKind::Workflow => AssetType::Workflow,
        };
        Some(AssetDoc {
            key: format!("toolbox:{name}"),
            asset_type,
            identity: name.to_string(),
            name: name.to_string(),
            toolbox: name.to_string(),
            from: origin_name(folder.origin).to_string(),
            installed: folder.origin == Origin::World,
            registered: true,
            description: folder.purpose.clone(),
            signature: None,
            fields: vec![
                (Role::Name, name.to_string()),
                (Role::Tag, folder.tags.join(" ")),
                (Role::Description, folder.purpose.clone()),
            ],
            context: String::new(),
            title: None,
            arguments_mean: true,
        })
    }

    /// The docs of every toolbox name.
    pub(crate) fn toolboxes(index: &AssetIndex) -> Vec<AssetDoc> {
        index
            .toolbox_names()
            .into_iter()
            .filter_map(|name| AssetDoc::toolbox(index, name))
            .collect()
    }

    /// The doc of one tool of an upstream MCP server (`view`), from its cached catalogue.
    /// What the server's instructions say of the tool is its README; the server itself is
    /// the context its meaning is read in.
    pub(crate) fn upstream_tool(view: &ServerView, tool: &UpstreamTool) -> AssetDoc {
        let server = view.name.as_str();
        let types = tool.types();
        let args: Vec<String> = types
            .args
            .iter()
            .map(|a| format!("{} {}", a.name, a.description.as_deref().unwrap_or("")))
            .collect();
        let description = match &tool.title {
            Some(title) if tool.description.is_empty() => title.clone(),
            _ => tool.description.clone(),
        };
        let about = view.about();
        let readme = about.map_or(String::new(), |a| a.about_tool(&tool.original));
        // Its title, and the words nearest its server's name: a request to "remember" a
        // fact is one for the server `memory`, whose tools speak of entities.
        let mut tags = tool.title.clone().unwrap_or_default();
        for word in server_words(view) {
            tags.push(' ');
            tags.push_str(&word);
        }
        AssetDoc {
            key: format!("tool:{server}.{}", tool.name),
            asset_type: AssetType::Tool,
            identity: format!("{server}.{}", tool.name),
            name: tool.name.clone(),
            toolbox: server.to_string(),
            from: format!("mcp:{server}"),
            installed: true,
            registered: true,
            description: description.clone(),
            signature: Some(tool.signature_of(&types)),
            fields: vec![
                (Role::Name, tool.name.clone()),
                (Role::Tag, tags),
                (Role::Description, description),
                (Role::Argument, args.join("\n")),
                (
                    Role::Returns,
                    types.returns_description.clone().unwrap_or_default(),
                ),
                (Role::Example, String::new()),
                (Role::Readme, readme),
            ],
            context: server_context(view),
            title: tool.title.clone(),
            arguments_mean: tool.request.is_none(),
        }
    }

    /// The doc of an upstream server as a toolbox: described by [`ServerView::purpose`],
    /// tagged with its names, its instructions as its README.
    pub(crate) fn upstream_toolbox(view: &ServerView) -> AssetDoc {
        let purpose = view.purpose();
        let about = view.about();
        let mut tags = format!("mcp {}", view.original);
        for name in about.iter().flat_map(|a| [&a.title, &a.name]).flatten() {
            tags.push(' ');
            tags.push_str(name);
        }
        let instructions = about.and_then(|a| a.instructions.clone());
        AssetDoc {
            key: format!("toolbox:{}", view.name),
            asset_type: AssetType::Toolbox,
            identity: view.name.clone(),
            name: view.name.clone(),
            toolbox: view.name.clone(),
            from: view.from(),
            installed: true,
            registered: true,
            description: purpose.clone(),
            signature: None,
            fields: vec![
                (Role::Name, view.name.clone()),
                (Role::Tag, tags),
                (Role::Description, purpose),
                (Role::Readme, instructions.unwrap_or_default()),
            ],
            context: String::new(),
            title: None,
            arguments_mean: true,
        }
    }

    /// The docs of an upstream server: its toolbox and its cached tools.
    pub(crate) fn upstream(view: &ServerView) -> Vec<AssetDoc> {
        let mut docs = vec![AssetDoc::upstream_toolbox(view)];
        docs.extend(
            view.tools()
                .iter()
                .map(|t| AssetDoc::upstream_tool(view, t)),
        );
        docs
    }

    /// The text the semantic model embeds: name words, then the roles that say what it does
    /// (the arguments only when [`AssetDoc::arguments_mean`]).
    pub(crate) fn meaning_text(&self) -> String {
        let mut text = super::words::name_words(&self.name);
        for (role, value) in &self.fields {
            let said = match role {
                Role::Tag | Role::Description | Role::Returns => true,
                Role::Argument => self.arguments_mean,
                _ => false,
            };
            if said {
                text.push('\n');
                text.push_str(value);
            }
        }
        text
    }

    /// The vector `model` gives this asset: that of [`AssetDoc::meaning_text`], and when
    /// the asset has a [`AssetDoc::context`], the context's added at [`CONTEXT_SHARE`] of
    /// its weight. A server's tool is described in the server's terms: `read_graph`
    /// "reads the entire knowledge graph" of the server `memory`, and a request to recall
    /// what was remembered is near the server, not the words of the tool.
    pub(crate) fn meaning(&self, model: &dyn Meaning) -> Option<Vec<f32>> {
        let own = model.asset(&self.meaning_text());
        if self.context.is_empty() {
            return own;
        }
        let context = model.asset(&self.context);
        let (own, context) = match (own, context) {
            (Some(own), Some(context)) => (own, context),
            (own, context) => return own.or(context),
        };
        let sum: Vec<f32> = own
            .iter()
            .zip(&context)
            .map(|(a, b)| a + CONTEXT_SHARE * b)
            .collect();
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        (norm > 0.0).then(|| sum.iter().map(|x| x / norm).collect())
    }

    /// The text of one role.
    pub(crate) fn field(&self, role: Role) -> &str {
        self.fields
            .iter()
            .find(|(r, _)| *r == role)
            .map_or("", |(_, t)| t.as_str())
    }

    /// A GUID stable for the asset across runs and machines (FNV-1a of the key).
    pub(crate) fn guid(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.key.bytes() {
            hash ^= b as u64;
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("{hash:016x}")
    }
}

/// `world` or `library`, as rows show where an asset was found.
fn origin_name(origin: Origin) -> &'static str {
    match origin {
        Origin::World => "world",
        Origin::Library => "library",
    }
}
