//! A little-endian byte format for cache files: numbers, and strings and byte runs
//! prefixed by their length.

/// Appends values to a buffer.
#[derive(Debug, Default)]
pub struct Writer {
    data: Vec<u8>,
}

impl Writer {
    /// Bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) {
        self.data.extend_from_slice(bytes);
    }

    /// One byte.
    pub fn u8(&mut self, v: u8) {
        self.data.push(v);
    }

    /// A 32-bit number.
    pub fn u32(&mut self, v: u32) {
        self.data.extend_from_slice(&v.to_le_bytes());
    }

    /// A 64-bit number.
    pub fn u64(&mut self, v: u64) {
        self.data.extend_from_slice(&v.to_le_bytes());
    }

    /// A byte run with its length.
    pub fn bytes(&mut self, v: &[u8]) {
        self.u32(v.len() as u32);
        self.raw(v);
    }

    /// A string with its length.
    pub fn str(&mut self, v: &str) {
        self.bytes(v.as_bytes());
    }

    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.data
    }
}

/// Reads values back; every read is `None` past the end or on a bad string.
#[derive(Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// Reads `data` from its start.
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, at: 0 }
    }

    /// How far it has read.
    pub fn at(&self) -> usize {
        self.at
    }

    /// How many bytes are left.
    pub fn left(&self) -> usize {
        self.data.len() - self.at
    }

    /// True when everything was read.
    pub fn done(&self) -> bool {
        self.at == self.data.len()
    }

    /// The next `n` bytes.
    pub fn raw(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.data.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        Some(self.raw(1)?[0])
    }

    /// A 32-bit number.
    pub fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.raw(4)?.try_into().ok()?))
    }

    /// A 64-bit number.
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.raw(8)?.try_into().ok()?))
    }

    /// A byte run written by [`Writer::bytes`].
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.raw(n)
    }

    /// A string written by [`Writer::str`].
    pub fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }
}
