// Java itself as the reader of .properties files, for test/formats/properties.test.ts. Each file named
// on the command line is loaded with java.util.Properties.load(InputStream) (ISO-8859-1) and with
// new PropertyResourceBundle(InputStream) (Java 9+: UTF-8, else ISO-8859-1), and the pairs are printed
// as one JSON object, {"<file>": {"properties": {...}, "bundle": {...}}, ...}, in pure ASCII: every
// character below U+0020 or from U+007F up is written as a \\uXXXX escape, so that what Java read
// reaches the test exactly. Run as a single-file source program: java ReadProperties.java a.properties
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.PropertyResourceBundle;
import java.util.TreeMap;

public class ReadProperties {
  public static void main(String[] args) throws IOException {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < args.length; i++) {
      Path file = Path.of(args[i]);
      Properties properties = new Properties();
      try (InputStream in = Files.newInputStream(file)) {
        properties.load(in);
      }
      Map<String, String> loaded = new TreeMap<>();
      for (String key : properties.stringPropertyNames()) loaded.put(key, properties.getProperty(key));
      PropertyResourceBundle bundle;
      try (InputStream in = Files.newInputStream(file)) {
        bundle = new PropertyResourceBundle(in);
      }
      Map<String, String> bundled = new TreeMap<>();
      for (String key : bundle.keySet()) bundled.put(key, bundle.getString(key));
      if (i > 0) out.append(',');
      out.append(json(args[i])).append(":{\"properties\":").append(json(loaded)).append(",\"bundle\":").append(json(bundled)).append('}');
    }
    System.out.println(out.append('}'));
  }

  static String json(Map<String, String> pairs) {
    StringBuilder out = new StringBuilder("{");
    for (Map.Entry<String, String> pair : pairs.entrySet()) {
      if (out.length() > 1) out.append(',');
      out.append(json(pair.getKey())).append(':').append(json(pair.getValue()));
    }
    return out.append('}').toString();
  }

  static String json(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20 || c >= 0x7f) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
