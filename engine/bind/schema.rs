//! A tool's parameters as binding sees them: types parsed, flags, `--!rest`, options table.

use crate::assets::ToolMeta;

use crate::types::{Field, Ty};

/// One parameter of a tool.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Param {
    /// The parameter name.
    pub(crate) name: String,
    /// Its type, read.
    pub(crate) ty: Ty,
    /// Its type as written, for messages.
    pub(crate) written: String,
    /// What it means.
    pub(crate) description: String,
}

/// A `--!flag`: a boolean parameter or options field set by `--NAME` or `-SHORT`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlagSpec {
    /// The parameter or field it sets.
    pub(crate) name: String,
    /// One-letter alias.
    pub(crate) short: Option<char>,
}

/// Everything binding needs to know about one tool.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Schema {
    /// `"<box>.<name>"`.
    pub(crate) identity: String,
    /// Parameters in order.
    pub(crate) params: Vec<Param>,
    /// `--!flag` annotations that name a parameter or an options field.
    pub(crate) flags: Vec<FlagSpec>,
    /// Index of the `--!rest` parameter.
    pub(crate) rest: Option<usize>,
    /// Index and fields of the trailing options table (a last parameter typed `{ f: T, ... }`).
    pub(crate) options: Option<(usize, Vec<Field>)>,
    /// The type of the values a trailing `...` takes after the parameters, if any.
    pub(crate) vararg: Option<Ty>,
}

impl Schema {
    /// Reads the schema from a tool's metadata.
    pub(crate) fn from_meta(meta: &ToolMeta) -> Schema {
        let params: Vec<Param> = meta
            .args
            .iter()
            .map(|a| Param {
                name: a.name.clone(),
                ty: Ty::parse(&a.ty),
                written: a.ty.clone(),
                description: a.description.clone(),
            })
            .collect();
        let rest = meta
            .rest
            .as_ref()
            .and_then(|r| params.iter().position(|p| &p.name == r));
        let options = params
            .len()
            .checked_sub(1)
            .filter(|last| Some(*last) != rest)
            .and_then(|last| Some((last, params[last].ty.record_fields()?)));
        let mut schema = Schema {
            identity: meta.identity.clone(),
            params,
            flags: Vec::new(),
            rest,
            options,
            vararg: meta.vararg.as_deref().map(Ty::parse),
        };
        schema.flags = meta
            .flags
            .iter()
            .enumerate()
            // A flag written twice is one flag (`codemode check` warns of the second).
            .filter(|(i, f)| !meta.flags[..*i].iter().any(|g| g.name == f.name))
            .map(|(_, f)| f)
            .filter(|f| schema.slot_type(&f.name).is_some())
            .map(|f| FlagSpec {
                name: f.name.clone(),
                short: f.short.as_deref().and_then(|s| s.chars().next()),
            })
            .collect();
        schema
    }

    /// What binding ignores in `meta`'s docstring, each as a warning for `codemode check`:
    /// a `--!flag` written twice, a `--!rest` naming no parameter.
    pub(crate) fn ignored_docs(meta: &ToolMeta) -> Vec<String> {
        let mut said = Vec::new();
        for (i, flag) in meta.flags.iter().enumerate() {
            if meta.flags[..i].iter().any(|f| f.name == flag.name) {
                said.push(format!(
                    "`--!flag {}` is written twice; the first is used, remove the other",
                    flag.name
                ));
            }
        }
        if let Some(rest) = &meta.rest {
            if !meta.args.iter().any(|a| &a.name == rest) {
                let fix = match meta.vararg {
                    Some(_) => "the trailing `...` takes the remaining words without it; remove it",
                    None => "declare it with `--!arg NAME { T } ...` or remove it",
                };
                said.push(format!("`--!rest {rest}` names no parameter; {fix}"));
            }
        }
        said
    }

    /// The `--!flag` names of `meta` that name no parameter and no options field, which
    /// binding therefore ignores.
    pub(crate) fn ignored_flags(meta: &ToolMeta) -> Vec<String> {
        let schema = Schema::from_meta(meta);
        meta.flags
            .iter()
            .filter(|f| schema.flag(&f.name).is_none())
            .map(|f| f.name.clone())
            .collect()
    }

    /// The parameter with this name.
    pub(crate) fn param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|p| p.name == name)
    }

    /// The options field with this name.
    pub(crate) fn field(&self, name: &str) -> Option<&Field> {
        self.options
            .as_ref()
            .and_then(|(_, fields)| fields.iter().find(|f| f.name == name))
    }

    /// The type of a parameter or (failing that) an options field.
    pub(crate) fn slot_type(&self, name: &str) -> Option<&Ty> {
        match self.param(name) {
            Some(i) => Some(&self.params[i].ty),
            None => self.field(name).map(|f| &f.ty),
        }
    }

    /// The flag with this long name.
    pub(crate) fn flag(&self, name: &str) -> Option<&FlagSpec> {
        self.flags.iter().find(|f| f.name == name)
    }

    /// The flag with this one-letter alias.
    pub(crate) fn short_flag(&self, short: char) -> Option<&FlagSpec> {
        self.flags.iter().find(|f| f.short == Some(short))
    }

    /// Indices of the parameters that plain words fill, in order: every parameter but the
    /// `--!flag` ones and the `--!rest` one. The options table is last, so a JSON word can
    /// still fill it, unless the tool has a `--!rest` parameter or a trailing `...` (which
    /// take every word left).
    pub(crate) fn positional(&self) -> Vec<usize> {
        let options = self.options.as_ref().map(|(o, _)| *o);
        let takes_the_rest = self.rest.is_some() || self.vararg.is_some();
        (0..self.params.len())
            .filter(|i| Some(*i) != self.rest)
            .filter(|i| !takes_the_rest || Some(*i) != options)
            .filter(|i| self.flag(&self.params[*i].name).is_none())
            .collect()
    }

    /// Every name a `--NAME` may use: parameters and options fields.
    pub(crate) fn long_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        if let Some((_, fields)) = &self.options {
            names.extend(fields.iter().map(|f| f.name.as_str()));
        }
        names
    }
}
