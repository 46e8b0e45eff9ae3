import { requireViewer } from "@/lib/auth/current";
import { PageHeader } from "@/components/ui/page-header";
import { configuredPrincipalMapping } from "@/lib/services/identities";
import { IdentitiesForm } from "./identities-form";

export const metadata = { title: "Identities" };

export default async function IdentitiesPage() {
  const viewer = await requireViewer();
  const configured = configuredPrincipalMapping(viewer.credential);
  return (
    <>
      <PageHeader
        title="Identities"
        lead={
          "Which principal Kafka makes of a client certificate or a Kerberos principal, with the brokers' " +
          "mapping rules, and what that principal may do."
        }
        details={
          <>
            <p>
              An mTLS client is <code>User:</code> + its certificate&apos;s subject, printed the way Java prints it (RFC
              2253: last name first, no spaces after commas), passed through <code>ssl.principal.mapping.rules</code>. A
              Kerberos client is its principal through <code>sasl.kerberos.principal.to.local.rules</code>. Rules apply
              in order; the first that yields a name wins, and when none does Kafka refuses the connection. The mapping
              here is Kafka 4.1&apos;s own (SslPrincipalMapper, KerberosShortNamer), checked against Kafka&apos;s
              classes; an invalid rule gives the exception a broker would refuse to start with.
            </p>
            <p>
              The rules are prefilled from <code>KAFKA_SSL_PRINCIPAL_MAPPING_RULES</code>,{" "}
              <code>KAFKA_SASL_KERBEROS_PRINCIPAL_TO_LOCAL_RULES</code> and <code>KAFKA_KERBEROS_DEFAULT_REALM</code>;
              an empty box means the property is unset (<code>DEFAULT</code>). Nothing here changes Kafka.
            </p>
          </>
        }
      />
      <IdentitiesForm
        defaults={{
          sslRules: configured.ssl?.rules ?? "",
          kerberosRules: configured.kerberos?.rules ?? "",
          defaultRealm: configured.kerberos?.defaultRealm ?? "",
        }}
      />
    </>
  );
}
