//! The host capabilities a profile grants.

/// The capabilities one profile grants its runs. The default is what a world without a
/// policy file gets: authoring and `vfs` writes allowed, no network, no processes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Capabilities {
    /// `tools.create`, `tools.createToolbox`, `tools.delete` and `tools.install`.
    pub authoring: bool,
    /// `vfs.write` and `vfs.remove`.
    pub vfs_write: bool,
    /// Host patterns (`api.example.com`, `*.example.org`, optionally with `:port`) that
    /// `http.request` may reach; empty means `http` is off.
    pub http: Vec<String>,
    /// Commands `shell.run` may start; empty means `shell` is off.
    pub shell: Vec<String>,
    /// Whether started commands may use TCP (bind and connect); off, the kernel refuses
    /// them (where it confines commands at all).
    pub shell_network: bool,
    /// Whether commands start on a kernel that cannot (fully) confine them, with
    /// codemode's own rights for what it cannot; off, `shell.run` refuses there.
    pub shell_unconfined: bool,
}

impl Capabilities {
    /// The same text for the same grants, whatever order a policy file lists them in:
    /// cached results are kept per fingerprint, so a profile never reads back what a
    /// tool returned under wider grants.
    pub(crate) fn fingerprint(&self) -> String {
        let sorted = |list: &[String]| {
            let mut list = list.to_vec();
            list.sort();
            list.dedup();
            list.join(",")
        };
        format!(
            "authoring={};vfsWrite={};http={};shell={};shellNetwork={};shellUnconfined={}",
            self.authoring,
            self.vfs_write,
            sorted(&self.http),
            sorted(&self.shell),
            self.shell_network,
            self.shell_unconfined
        )
    }
}

impl Default for Capabilities {
    fn default() -> Self {
        Capabilities {
            authoring: true,
            vfs_write: true,
            http: Vec::new(),
            shell: Vec::new(),
            shell_network: false,
            shell_unconfined: false,
        }
    }
}
