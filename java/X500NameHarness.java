import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.cert.*;
import java.util.*;
import javax.security.auth.x500.X500Principal;

/**
 * What Java (and so a Kafka broker) makes of distinguished names, for
 * lib/policy/identity/x500-name.integration.test.ts. Run as a single-file program:
 *   java java/X500NameHarness.java cert1.der cert2.der ... < dns
 * Prints, per certificate, getSubjectX500Principal().getName(); then, per stdin line (a
 * base64 DN text), new X500Principal(text).getName() or "!" + the exception's class.
 * Each answer is one line, base64 of its UTF-8 bytes (or the "!" form).
 */
public class X500NameHarness {
  public static void main(String[] args) throws Exception {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    Base64.Encoder b64 = Base64.getEncoder();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    for (String path : args) {
      try (InputStream in = Files.newInputStream(Paths.get(path))) {
        X509Certificate cert = (X509Certificate) factory.generateCertificate(in);
        out.println(b64.encodeToString(cert.getSubjectX500Principal().getName().getBytes(StandardCharsets.UTF_8)));
      }
    }
    BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = reader.readLine()) != null; ) {
      if (line.isEmpty()) continue;
      String text = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
      try {
        out.println(b64.encodeToString(new X500Principal(text).getName().getBytes(StandardCharsets.UTF_8)));
      } catch (Exception e) {
        out.println("!" + e.getClass().getSimpleName());
      }
    }
  }
}
