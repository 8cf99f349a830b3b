//! The rustls side: the ring provider, the server's certificate and key
//! (loaded from PEM files, or a self-signed pair made with rcgen on first
//! start), and the two configurations.
//!
//! Neither side uses certificate authorities: the server is trusted by its
//! pinned fingerprint ([`super::known_hosts`]), a client by its token or by
//! its certificate's fingerprint being on the server's list. So the
//! verifiers here accept any certificate *chain* but still verify the
//! handshake signature with it (the peer must hold the key), and the
//! fingerprint is checked right after the handshake, before the client
//! sends its token or the server starts anything.

use std::path::Path;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};

use super::fingerprint::Fingerprint;

/// The crypto provider: rustls's ring backend (it cross-builds for
/// Windows with mingw, where aws-lc-rs needs cmake and nasm).
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// A certificate chain and its private key.
#[derive(Debug)]
pub struct Identity {
    pub certs: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

impl Identity {
    /// The fingerprint of the end certificate.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint::of_der(self.certs.first().map(|c| c.as_ref()).unwrap_or(&[]))
    }
}

/// Why a certificate, key or configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    #[error("certificate '{path}': {reason}")]
    Cert { path: String, reason: String },
    #[error("private key '{path}': {reason}")]
    Key { path: String, reason: String },
    #[error("cannot write '{path}': {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot make a self-signed certificate: {0}")]
    Generate(String),
    #[error("TLS setup: {0}")]
    Config(String),
}

/// Reads a PEM certificate chain and key.
pub fn load_identity(cert: &Path, key: &Path) -> Result<Identity, TlsError> {
    let cert_text = crate::files::read_text(cert, "certificate", crate::files::CONFIG_LIMIT)?;
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_text.as_bytes())
        .collect::<Result<_, _>>()
        .map_err(|e| TlsError::Cert {
            path: cert.display().to_string(),
            reason: e.to_string(),
        })?;
    if certs.is_empty() {
        return Err(TlsError::Cert {
            path: cert.display().to_string(),
            reason: "no CERTIFICATE block in it".into(),
        });
    }
    let key_text = crate::files::read_text(key, "private key", crate::files::CONFIG_LIMIT)?;
    let key = PrivateKeyDer::from_pem_slice(key_text.as_bytes()).map_err(|e| TlsError::Key {
        path: key.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(Identity { certs, key })
}

/// Makes a self-signed pair for `names` and writes it (the key readable by
/// its owner only; neither file may exist yet).
pub fn create_self_signed(cert: &Path, key: &Path, names: &[String]) -> Result<Identity, TlsError> {
    if let Some(dir) = key.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| TlsError::Write {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let made = rcgen::generate_simple_self_signed(names.to_vec())
        .map_err(|e| TlsError::Generate(e.to_string()))?;
    let write = |path: &Path, text: &str| -> Result<(), TlsError> {
        let werr = |source| TlsError::Write {
            path: path.display().to_string(),
            source,
        };
        let mut file = crate::platform::fs::create_private(path).map_err(werr)?;
        std::io::Write::write_all(&mut file, text.as_bytes()).map_err(werr)?;
        file.sync_all().map_err(werr)
    };
    write(key, &made.signing_key.serialize_pem())?;
    write(cert, &made.cert.pem())?;
    load_identity(cert, key)
}

/// The server's identity: the files if the certificate exists, else a new
/// self-signed pair written to them. `true` when it was made now.
pub fn load_or_create(cert: &Path, key: &Path) -> Result<(Identity, bool), TlsError> {
    if cert.exists() {
        return Ok((load_identity(cert, key)?, false));
    }
    let names = vec!["uci960".to_string(), "localhost".to_string()];
    Ok((create_self_signed(cert, key, &names)?, true))
}

fn config_err(e: rustls::Error) -> TlsError {
    TlsError::Config(e.to_string())
}

/// The server's configuration: a client certificate is asked for but not
/// required (a client without one authenticates by token).
pub fn server_config(identity: Identity) -> Result<Arc<rustls::ServerConfig>, TlsError> {
    let provider = provider();
    let verifier = Arc::new(AnyCert(provider.signature_verification_algorithms));
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(config_err)?
        .with_client_cert_verifier(verifier)
        .with_single_cert(identity.certs, identity.key)
        .map_err(config_err)?;
    Ok(Arc::new(config))
}

/// The client's configuration, with a client certificate when given.
pub fn client_config(identity: Option<Identity>) -> Result<Arc<rustls::ClientConfig>, TlsError> {
    let provider = provider();
    let verifier = Arc::new(AnyCert(provider.signature_verification_algorithms));
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(config_err)?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let config = match identity {
        Some(id) => builder
            .with_client_auth_cert(id.certs, id.key)
            .map_err(config_err)?,
        None => builder.with_no_client_auth(),
    };
    Ok(Arc::new(config))
}

/// The name the client gives (no CA checks it; see the module docs).
pub fn server_name(host: &str) -> ServerName<'static> {
    ServerName::try_from(host.to_string())
        .unwrap_or_else(|_| ServerName::try_from("uci960").expect("a valid DNS name"))
}

/// Accepts any certificate, checks the handshake signature with it; the
/// fingerprint is judged after the handshake (see the module docs).
#[derive(Debug)]
struct AnyCert(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for AnyCert {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

impl ClientCertVerifier for AnyCert {
    fn offer_client_auth(&self) -> bool {
        true
    }

    fn client_auth_mandatory(&self) -> bool {
        false
    }

    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        Ok(ClientCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}
