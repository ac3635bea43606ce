//! TLS 1.3 for protocols tls (HTTP/1.1) and h2 (ALPN `h2`): rustls on ring, trusting only the certificate dyno made
//! for the run (or the CA that signed it), never skipping verification, and saying what was negotiated or, in words
//! that say what to fix, why TLS refused. What a connection then does (count an error, fail the run) is connection.rs's.

use crate::config::{Config, Protocol};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::{verify_server_name, WebPkiServerVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// What protocols tls and h2 offer by ALPN: HTTP/1.1, or HTTP/2 alone (a server that does not take it is refused).
const ALPN_HTTP1: &[u8] = b"http/1.1";
const ALPN_H2: &[u8] = b"h2";
/// How long the handshake that asks a server refusing h2 what it speaks may take.
const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The TLS side of a run: the client, the name to verify, and what to say about a server that refuses.
pub struct TlsTarget {
    connector: TlsConnector,
    /// The same client offering only http/1.1: to name what a server that refused h2 speaks.
    probe: TlsConnector,
    server_name: ServerName<'static>,
    protocol: Protocol,
    address: SocketAddr,
    ca_file: String,
}

/// How a TLS handshake went.
pub enum Handshake<S> {
    /// TLS is up, speaking what the run asked for: the stream, and what was negotiated as the report names it.
    Ready(S, &'static str),
    /// The connection failed before TLS said anything: a connection error, connect again.
    Lost,
    /// TLS refused (a certificate not trusted, h2 not negotiated): the run cannot go on, for this reason.
    Refused(String),
}

impl TlsTarget {
    /// The client of a config whose protocol uses TLS (None for the others); a certificate file that cannot be read
    /// or used is named.
    pub fn new(config: &Config) -> Result<Option<TlsTarget>, String> {
        if !config.protocol.uses_tls() {
            return Ok(None);
        }
        let tls = config.tls.as_ref().ok_or("tls is required")?;
        let ca_file = tls.ca_file.clone().unwrap_or_default();
        let server_name = ServerName::try_from(tls.server_name.clone().unwrap_or_default())
            .map_err(|error| format!("tls.serverName: {error}"))?;
        let certificates = read_certificates(&ca_file)?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = Arc::new(RunCertificate::new(certificates, provider.clone())?);
        let client = |alpn: &[u8]| -> Result<TlsConnector, String> {
            let mut client = ClientConfig::builder_with_provider(provider.clone())
                .with_protocol_versions(&[&rustls::version::TLS13])
                .map_err(|error| format!("TLS 1.3 with ring: {error}"))?
                // A verifier of our own (RunCertificate): it verifies, it does not skip.
                .dangerous()
                .with_custom_certificate_verifier(verifier.clone())
                .with_no_client_auth();
            client.alpn_protocols = vec![alpn.to_vec()];
            Ok(TlsConnector::from(Arc::new(client)))
        };
        let alpn = if config.protocol == Protocol::H2 {
            ALPN_H2
        } else {
            ALPN_HTTP1
        };
        Ok(Some(TlsTarget {
            connector: client(alpn)?,
            probe: client(ALPN_HTTP1)?,
            server_name,
            protocol: config.protocol,
            address: config.address,
            ca_file,
        }))
    }

    /// The TLS handshake on a new connection, and the protocol negotiated checked against the one asked for.
    pub async fn handshake(&self, tcp: TcpStream) -> Handshake<TlsStream<TcpStream>> {
        match self.connector.connect(self.server_name.clone(), tcp).await {
            Ok(stream) => {
                let alpn = stream.get_ref().1.alpn_protocol();
                match (self.protocol, alpn) {
                    (Protocol::H2, Some(ALPN_H2)) => Handshake::Ready(stream, "h2 over TLSv1.3"),
                    (Protocol::H2, other) => Handshake::Refused(format!(
                        "protocol h2: the server at {} negotiated {} over TLSv1.3, not h2: it does not serve HTTP/2 over TLS",
                        self.address,
                        alpn_name(other)
                    )),
                    _ => Handshake::Ready(stream, "http/1.1 over TLSv1.3"),
                }
            }
            Err(error) => match error
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            {
                Some(refused) => Handshake::Refused(self.refusal(refused).await),
                None => Handshake::Lost,
            },
        }
    }

    /// Why TLS refused, in words that say what to fix.
    async fn refusal(&self, error: &rustls::Error) -> String {
        let protocol = self.protocol.name();
        let address = self.address;
        match error {
            rustls::Error::InvalidCertificate(
                why @ (CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. }),
            ) => format!(
                "protocol {protocol}: the certificate of the server at {address} is not valid for tls.serverName {}: {why}",
                self.server_name.to_str()
            ),
            rustls::Error::InvalidCertificate(
                why @ (CertificateError::Expired
                | CertificateError::ExpiredContext { .. }
                | CertificateError::NotValidYet
                | CertificateError::NotValidYetContext { .. }),
            ) => format!(
                "protocol {protocol}: the certificate of the server at {address} is out of its validity: {why}"
            ),
            rustls::Error::InvalidCertificate(why) => format!(
                "protocol {protocol}: the server at {address} presented a certificate that is neither the one in tls.caFile `{}` nor \
                 issued by one of its certificates ({why:?})",
                self.ca_file
            ),
            rustls::Error::AlertReceived(rustls::AlertDescription::NoApplicationProtocol)
                if self.protocol == Protocol::H2 =>
            {
                format!(
                    "protocol h2: the server at {address} refused ALPN h2 (alert no_application_protocol); {}: it does not serve \
                     HTTP/2 over TLS",
                    self.offered_http1().await
                )
            }
            rustls::Error::PeerIncompatible(why) => format!(
                "protocol {protocol}: the server at {address} cannot speak TLS 1.3 as the engine does: {why:?}"
            ),
            other => format!("protocol {protocol}: the TLS handshake with {address} failed: {other}"),
        }
    }

    /// What the server negotiates when offered http/1.1, for the message of one that refused h2 (asked once, within
    /// PROBE_TIMEOUT).
    async fn offered_http1(&self) -> String {
        let probe = async {
            let tcp = TcpStream::connect(self.address).await?;
            self.probe.connect(self.server_name.clone(), tcp).await
        };
        match tokio::time::timeout(PROBE_TIMEOUT, probe).await {
            Ok(Ok(stream)) => format!(
                "offered http/1.1, it negotiates {} over TLSv1.3",
                alpn_name(stream.get_ref().1.alpn_protocol())
            ),
            Ok(Err(error)) => format!("offered http/1.1, it refuses that too ({error})"),
            Err(_) => format!(
                "offered http/1.1, it did not finish the handshake within {} s",
                PROBE_TIMEOUT.as_secs()
            ),
        }
    }
}

/// An ALPN protocol as the messages name it.
fn alpn_name(alpn: Option<&[u8]>) -> String {
    match alpn {
        None => "no ALPN protocol (so HTTP/1.1)".into(),
        Some(name) => String::from_utf8_lossy(name).into_owned(),
    }
}

/// The certificates of a PEM file, at least one.
fn read_certificates(ca_file: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let certificates = CertificateDer::pem_file_iter(ca_file)
        .map_err(|error| format!("tls.caFile `{ca_file}` cannot be read: {error}"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("tls.caFile `{ca_file}` is not PEM: {error}"))?;
    if certificates.is_empty() {
        return Err(format!("tls.caFile `{ca_file}` holds no certificate"));
    }
    Ok(certificates)
}

/// Trusts what the run's certificate file holds, and nothing else. A server's certificate passes when webpki builds
/// its chain to one of them (a CA dyno made, or a self-signed certificate that is not a CA), or when it is, byte for
/// byte, one of them and valid for the name: `openssl req -x509` marks its self-signed certificate a CA, and webpki
/// never takes a CA certificate as a server's own. Either way rustls then checks that the server holds the
/// certificate's key (the TLS 1.3 CertificateVerify signature). An expired or not yet valid certificate is refused,
/// pinned or not.
#[derive(Debug)]
struct RunCertificate {
    chain: Arc<WebPkiServerVerifier>,
    pinned: Vec<CertificateDer<'static>>,
}

impl RunCertificate {
    fn new(
        certificates: Vec<CertificateDer<'static>>,
        provider: Arc<CryptoProvider>,
    ) -> Result<Self, String> {
        let mut roots = RootCertStore::empty();
        for (index, certificate) in certificates.iter().enumerate() {
            roots.add(certificate.clone()).map_err(|error| {
                format!(
                    "tls.caFile: certificate {} cannot be trusted: {error}",
                    index + 1
                )
            })?;
        }
        let chain = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .map_err(|error| format!("tls.caFile: {error}"))?;
        Ok(RunCertificate {
            chain,
            pinned: certificates,
        })
    }
}

impl ServerCertVerifier for RunCertificate {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.chain.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            Ok(verified) => Ok(verified),
            Err(
                error @ rustls::Error::InvalidCertificate(
                    CertificateError::Expired
                    | CertificateError::ExpiredContext { .. }
                    | CertificateError::NotValidYet
                    | CertificateError::NotValidYetContext { .. },
                ),
            ) => Err(error),
            Err(error) => {
                if !self
                    .pinned
                    .iter()
                    .any(|pinned| pinned.as_ref() == end_entity.as_ref())
                {
                    return Err(error);
                }
                verify_server_name(&ParsedCertificate::try_from(end_entity)?, server_name)?;
                Ok(ServerCertVerified::assertion())
            }
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.chain.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.chain.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.chain.supported_verify_schemes()
    }
}
