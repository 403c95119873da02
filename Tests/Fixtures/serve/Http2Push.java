// Java's java.net.http.HttpClient (the JDK's HTTP/2 client, under pushy's users' stack) against
// `pushsim serve --tls`, trusting serve's CA through an SSLContext built from its PEM file.
// Usage: java Http2Push.java URL CA_PEM TOPIC
// Prints one line: the HTTP version, the status, the apns-id and the body.
import java.io.FileInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

public class Http2Push {
    public static void main(String[] arguments) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (FileInputStream pem = new FileInputStream(arguments[1])) {
            trusted.setCertificateEntry("pushsim", CertificateFactory.getInstance("X.509").generateCertificate(pem));
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, factory.getTrustManagers(), null);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(context)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(arguments[0])).timeout(Duration.ofSeconds(20))
                .header("apns-topic", arguments[2]).header("apns-push-type", "alert")
                .POST(HttpRequest.BodyPublishers.ofString("{\"aps\":{\"alert\":{\"title\":\"Java\",\"body\":\"HttpClient\"}}}"))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.version() + " " + response.statusCode() + " "
                + response.headers().firstValue("apns-id").orElse("-") + " " + response.body());
    }
}
