//! Raw HTTP/1.1 responses, read as the tests that speak to `serve --http` over a socket
//! see them.

use serde_json::Value;

/// One HTTP/1.1 response.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages in the body (JSON, or the `data:` lines of an event stream).
    pub fn messages(&self) -> Vec<Value> {
        if self.body.trim_start().starts_with('{') {
            return vec![serde_json::from_str(&self.body).expect("a JSON body")];
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str(data.trim()).ok())
            .collect()
    }
}

/// Status, headers and (de-chunked) body; status 0 when the server closed without one.
pub fn parse_response(raw: &[u8]) -> Reply {
    let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Reply {
            status: 0,
            headers: vec![],
            body: String::new(),
        };
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let body = raw[split + 4..].to_vec();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
            let size_text = String::from_utf8_lossy(&rest[..end]).to_string();
            let size =
                usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap_or(0);
            if size == 0 || rest.len() < end + 2 + size {
                break;
            }
            out.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[(end + 4 + size).min(rest.len())..];
        }
        out
    } else {
        body
    };
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    }
}
