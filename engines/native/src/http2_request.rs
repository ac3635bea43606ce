//! The request every HTTP/2 stream of a run sends, built once from the config: pseudo-headers from the method and the
//! URI (scheme https for h2, http for h2c), then the headers, then the body.

use crate::config::{HttpRequest, Protocol};
use bytes::Bytes;

/// The request every stream sends, built once: pseudo-headers from the method and the URI, then the headers, then
/// the body (in one DATA frame).
pub struct H2Request {
    method: http::Method,
    uri: http::Uri,
    headers: http::HeaderMap,
    pub body: Bytes,
}

impl H2Request {
    pub fn new(http: &HttpRequest, protocol: Protocol) -> Result<Self, String> {
        let scheme = if protocol == Protocol::H2 {
            "https"
        } else {
            "http"
        };
        let uri = http::Uri::builder()
            .scheme(scheme)
            .authority(http.authority.as_str())
            .path_and_query(http.path.as_str())
            .build()
            .map_err(|error| format!("http: the request's URI cannot be made: {error}"))?;
        let method = http::Method::from_bytes(http.method.as_bytes())
            .map_err(|error| format!("http.method: {error}"))?;
        let mut headers = http::HeaderMap::with_capacity(http.headers.len());
        for (name, value) in &http.headers {
            let name = http::HeaderName::from_bytes(name.as_bytes())
                .map_err(|error| format!("http.headers: `{name}`: {error}"))?;
            let value = http::HeaderValue::from_str(value)
                .map_err(|error| format!("http.headers: the value of `{name}`: {error}"))?;
            headers.append(name, value);
        }
        Ok(H2Request {
            method,
            uri,
            headers,
            body: Bytes::from(http.body.clone().unwrap_or_default()),
        })
    }

    pub fn request(&self) -> http::Request<()> {
        let mut request = http::Request::new(());
        *request.method_mut() = self.method.clone();
        *request.uri_mut() = self.uri.clone();
        *request.version_mut() = http::Version::HTTP_2;
        *request.headers_mut() = self.headers.clone();
        request
    }
}
