import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import forge from 'node-forge';
import { writeFileAtomic } from '../home/atomic-write.js';

/*
 * The home's sandbox CA (docs/sandbox.md, "Secrets"): the egress proxy ends TLS for the hosts a
 * credential goes to, with a certificate for the host signed here, so it can set the real header;
 * only the jails trust this CA (their bundle names it), never the host. node-forge writes the
 * certificates: Node can make keys but not X.509 certificates.
 */

/** Where the home's CA lives: the key beside, the public part in a folder the jails see. */
export function caPaths(runDir: string) {
  const dir = join(runDir, 'sandbox', 'ca');
  return {
    dir,
    key: join(dir, 'ca.key'),
    public: join(dir, 'public'),
    cert: join(dir, 'public', 'ca.pem'),
    bundle: join(dir, 'public', 'bundle.pem'),
  };
}

const SYSTEM_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];

function serial(): string {
  // Positive: the first byte's high bit clear.
  const b = randomBytes(16);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}

function rsaPair(): { privatePem: string; publicPem: string } {
  const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: k.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * The home's CA, made on first use (key 0600, certificate and the jails' bundle 0644), and the
 * bundle brought up to date when the system's changed: the system's roots (else Node's) and this CA.
 */
export function ensureCa(runDir: string): ReturnType<typeof caPaths> {
  const p = caPaths(runDir);
  mkdirSync(p.public, { recursive: true, mode: 0o755 });
  if (!existsSync(p.key) || !existsSync(p.cert)) {
    const pair = rsaPair();
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(pair.publicPem);
    cert.serialNumber = serial();
    const now = Date.now();
    cert.validity.notBefore = new Date(now - 86_400_000);
    cert.validity.notAfter = new Date(now + 10 * 365 * 86_400_000);
    const name = [
      { name: 'commonName', value: 'Jig sandbox CA' },
      { name: 'organizationName', value: 'Jig' },
    ];
    cert.setSubject(name);
    cert.setIssuer(name);
    cert.setExtensions([
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ]);
    cert.sign(forge.pki.privateKeyFromPem(pair.privatePem), forge.md.sha256.create());
    writeFileAtomic(p.key, pair.privatePem, 0o600);
    writeFileAtomic(p.cert, forge.pki.certificateToPem(cert), 0o644);
  }
  const system = SYSTEM_BUNDLES.find((f) => existsSync(f));
  const stale =
    !existsSync(p.bundle) ||
    statSync(p.bundle).mtimeMs < statSync(p.cert).mtimeMs ||
    (system !== undefined && statSync(p.bundle).mtimeMs < statSync(system).mtimeMs);
  if (stale) {
    const roots = system !== undefined ? readFileSync(system, 'utf8') : rootCertificates.join('\n');
    writeFileAtomic(p.bundle, `${roots.trimEnd()}\n${readFileSync(p.cert, 'utf8')}`, 0o644);
  }
  return p;
}

/** Certificates for the hosts one proxy ends TLS for, signed by the CA, all on one key. */
export class LeafCertificates {
  private readonly ca: forge.pki.Certificate;
  private readonly caKey: forge.pki.rsa.PrivateKey;
  private readonly pair = rsaPair();
  private readonly made = new Map<string, { cert: string; key: string }>();

  constructor(caCertPem: string, caKeyPem: string) {
    this.ca = forge.pki.certificateFromPem(caCertPem);
    this.caKey = forge.pki.privateKeyFromPem(caKeyPem);
  }

  for(host: string): { cert: string; key: string } {
    const known = this.made.get(host);
    if (known) return known;
    const cert = forge.pki.createCertificate();
    cert.publicKey = forge.pki.publicKeyFromPem(this.pair.publicPem);
    cert.serialNumber = serial();
    const now = Date.now();
    cert.validity.notBefore = new Date(now - 3_600_000);
    cert.validity.notAfter = new Date(now + 7 * 86_400_000);
    cert.setSubject([{ name: 'commonName', value: host }]);
    cert.setIssuer(this.ca.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [isIP(host) !== 0 ? { type: 7, ip: host } : { type: 2, value: host }],
      },
    ]);
    cert.sign(this.caKey, forge.md.sha256.create());
    const out = { cert: forge.pki.certificateToPem(cert), key: this.pair.privatePem };
    this.made.set(host, out);
    return out;
  }
}
