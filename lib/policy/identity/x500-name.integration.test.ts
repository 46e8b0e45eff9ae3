/**
 * Differential test: the subject Kafka sees for a client certificate. Certificates are made
 * by openssl with awkward subjects (escapes, leading and trailing spaces, non-ASCII,
 * multi-valued RDNs, attributes Java prints as OIDs, BMPString and T61String values), and
 * Java's X500Principal#getName() (java/X500NameHarness.java, the call a broker makes)
 * must agree with certificateSubjectRfc2253 on every one. DNs written as text are compared
 * with new X500Principal(text).getName() wherever normalizeDistinguishedName answers.
 * Needs Java 17 (the BMPString and T61String cases are JDK 17's forms) and openssl, not
 * the broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { javaX500Names, TestCertificates, type JavaNames } from "../../../scripts/x500-name-harness";
import { certificateSubjectRfc2253, normalizeDistinguishedName } from "./x500-name";

/** openssl -subj strings, with extra options. */
const SUBJECTS: { subj: string; flags?: string[]; stringMask?: string; jdkDependent?: boolean }[] = [
  { subj: "/C=US/O=Acme/OU=ServiceUsers/CN=svc-orders" },
  { subj: "/DC=com/DC=example/OU=Admin/CN=adminUser" },
  { subj: '/C=US/ST=CA/L=SF/O=Acme\\, Inc./OU=Service Users/CN= lead#;=<>"é trail ', flags: ["-utf8"] },
  { subj: "/OU=a+UID=u1/CN=multi", flags: ["-multivalue-rdn"] },
  { subj: "/emailAddress=a@b.c/street=1 Main/title=boss/serialNumber=42/givenName=Ann/CN=oids" },
  { subj: "/CN=#hash\\+plus\\\\back/O=semi;colon", flags: ["-utf8"] },
  { subj: "/CN=Zoë Ünïcødé 日本/O=Straße", flags: ["-utf8"] },
  { subj: "/CN=bmp ü", flags: ["-utf8"], stringMask: "MASK:0x800", jdkDependent: true },
  { subj: "/CN=t61 \u00e9", stringMask: "MASK:0x4", jdkDependent: true },
  { subj: "/CN=  /O=\r" },
];

const DN_TEXTS = [
  "CN=alice,OU=Eng,O=Acme",
  "CN=alice, OU=Eng, O=Acme",
  "cn=alice,ou=Eng",
  'CN="Acme, Inc",O=x',
  "CN=a\\,b,O=c\\2Cd",
  "CN=\\ lead,O=trail\\ ",
  "CN=é\\C3\\A9,O=x",
  "CN=a+UID=u1,DC=example,DC=com",
  "STREET=1 Main,L=SF,ST=CA,C=US",
  "2.5.4.3=bob,OU=x",
  "2.5.4.12=#0c04626f7373,CN=x",
  "CN=x=y",
  "CN=#1",
  "CN=a;O=b",
];

const certs = new TestCertificates();
let files: string[] = [];
let java: JavaNames;

beforeAll(() => {
  files = SUBJECTS.map((s) => certs.make(s.subj, s).der);
  java = javaX500Names(files, DN_TEXTS);
}, 120_000);

afterAll(() => certs.dispose());

describe("the subject of a certificate, as Java's X500Principal#getName() prints it", () => {
  it.each(SUBJECTS.map((s, i) => [s.subj, i] as const))("%s", (_subj, i) => {
    const notes: string[] = [];
    expect(certificateSubjectRfc2253(new Uint8Array(certs.read(files[i]!)), notes)).toBe(java.subjects[i]);
    expect(notes.length > 0).toBe(SUBJECTS[i]!.jdkDependent === true);
  });

  it("prints the service user's certificate in the order Kafka's SSL mapping rules see", () => {
    expect(certificateSubjectRfc2253(new Uint8Array(certs.read(files[0]!)))).toBe(
      "CN=svc-orders,OU=ServiceUsers,O=Acme,C=US",
    );
  });
});

describe("a DN written as text, normalised as X500Principal(text).getName() does", () => {
  it.each(DN_TEXTS.map((t, i) => [t, i] as const))("%s", (text, i) => {
    const ours = normalizeDistinguishedName(text);
    // null: the console declines this text (it then claims nothing about it).
    if (ours !== null) expect(ours).toBe(java.texts[i]);
  });

  it("reads the written forms the lint relies on", () => {
    expect(normalizeDistinguishedName("CN=alice, OU=Eng, O=Acme")).toBe("CN=alice,OU=Eng,O=Acme");
    expect(normalizeDistinguishedName("alice")).toBeNull();
    expect(normalizeDistinguishedName("alice@EXAMPLE.COM")).toBeNull();
  });
});
