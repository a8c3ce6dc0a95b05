// Java's MessageFormat as the reader of a .properties file's messages, for test/formats/java-messageformat.test.ts:
// loads the file as Spring's MessageSource does by default (PropertyResourceBundle) and formats every
// value with java.text.MessageFormat and the arguments (3, "x"), as Spring does for a message with
// arguments. Prints {"key": "formatted"} or {"key": "ERROR: ..."} as JSON (ASCII).
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.PropertyResourceBundle;
import java.util.TreeSet;

public class FormatMessages {
  public static void main(String[] args) throws Exception {
    PropertyResourceBundle bundle;
    try (InputStream in = Files.newInputStream(Path.of(args[0]))) { bundle = new PropertyResourceBundle(in); }
    StringBuilder out = new StringBuilder("{");
    for (String key : new TreeSet<>(bundle.keySet())) {
      String result;
      try {
        result = new MessageFormat(bundle.getString(key), Locale.GERMAN).format(new Object[] { 3, "x" });
      } catch (Exception e) {
        result = "ERROR: " + e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      if (out.length() > 1) out.append(',');
      out.append(json(key)).append(':').append(json(result));
    }
    System.out.println(out.append('}'));
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
