package dev.hookledger.runtime.internal.servlet;

import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request whose body the filter has read, passed on with that body readable again: through
 * {@link #getInputStream()} or {@link #getReader()} (one of them, as the servlet API says), and, for
 * a form post, through the {@code getParameter} methods, which would otherwise find the stream
 * consumed. The bytes are exactly those received.
 *
 * <p>Form parameters are parsed within the container's bounds ({@link FormLimits}): a form body
 * larger than its form-size limit, or with more keys than its key limit, is refused with an
 * {@link IllegalStateException} as the container refuses it, and the rest of a body the filter
 * stopped reading is read no further than that limit, never buffered whole.
 */
public final class ReplayedBodyRequest extends HttpServletRequestWrapper {
  private static final String FORM = "application/x-www-form-urlencoded";

  private final byte[] read;
  private final boolean partial;
  private final ReadDeadline deadline;
  private ServletInputStream stream;
  private BufferedReader reader;
  private Map<String, String[]> formParameters;

  private ReplayedBodyRequest(HttpServletRequest request, byte[] read, boolean partial, ReadDeadline deadline) {
    super(request);
    this.read = read;
    this.partial = partial;
    this.deadline = deadline;
  }

  /** {@code request}, whose whole body is {@code body}. */
  public static ReplayedBodyRequest whole(HttpServletRequest request, byte[] body) {
    return new ReplayedBodyRequest(request, body, false, ReadDeadline.NONE);
  }

  /**
   * {@code request}, of whose body {@code prefix} was read; the rest is still in its stream, and
   * must arrive within {@code deadline} of its first read (the prefix is held in the body budget
   * meanwhile).
   */
  public static ReplayedBodyRequest partlyRead(HttpServletRequest request, byte[] prefix, ReadDeadline deadline) {
    return new ReplayedBodyRequest(request, prefix, true, deadline);
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    if (reader != null) {
      throw new IllegalStateException("getReader() has already been called for this request");
    }
    return body();
  }

  @Override
  public BufferedReader getReader() throws IOException {
    if (reader == null) {
      if (stream != null) {
        throw new IllegalStateException("getInputStream() has already been called for this request");
      }
      reader = new BufferedReader(new InputStreamReader(body(), charset(StandardCharsets.ISO_8859_1)));
    }
    return reader;
  }

  @Override
  public String getParameter(String name) {
    String[] values = getParameterMap().get(name);
    return values == null ? null : values[0];
  }

  @Override
  public Map<String, String[]> getParameterMap() {
    return isForm() ? formParameters() : super.getParameterMap();
  }

  @Override
  public Enumeration<String> getParameterNames() {
    return Collections.enumeration(getParameterMap().keySet());
  }

  @Override
  public String[] getParameterValues(String name) {
    String[] values = getParameterMap().get(name);
    return values == null ? null : values.clone();
  }

  private ServletInputStream body() throws IOException {
    if (stream == null) {
      stream = new ReplayedInputStream(read, partial ? super.getInputStream() : null, deadline);
    }
    return stream;
  }

  private boolean isForm() {
    String type = getContentType();
    return "POST".equals(getMethod()) && type != null && type.toLowerCase(Locale.ROOT).startsWith(FORM);
  }

  /** The query string's parameters, then the body's (as the servlet API orders them); read once. */
  private Map<String, String[]> formParameters() {
    if (formParameters == null) {
      FormLimits limits = FormLimits.of(getServletContext());
      Map<String, List<String>> values = new LinkedHashMap<>();
      decode(getQueryString(), StandardCharsets.UTF_8, values, limits);
      // a body the application already read as a stream is not there to parse, as with the container
      if (stream == null && reader == null) {
        Charset charset = charset(StandardCharsets.UTF_8);
        decode(new String(formBody(limits), charset), charset, values, limits);
      }
      Map<String, String[]> out = new LinkedHashMap<>();
      values.forEach((k, v) -> out.put(k, v.toArray(String[]::new)));
      formParameters = Collections.unmodifiableMap(out);
    }
    return formParameters;
  }

  /** The whole form body, refused past the container's form-size limit before the rest is read. */
  private byte[] formBody(FormLimits limits) {
    if (read.length > limits.maxContentSize()) {
      throw limits.tooLarge();
    }
    if (!partial) {
      return read;
    }
    try {
      byte[] rest = new ReplayedInputStream(new byte[0], super.getInputStream(), deadline)
          .readNBytes(limits.maxContentSize() - read.length + 1);
      if (read.length + rest.length > limits.maxContentSize()) {
        throw limits.tooLarge();
      }
      byte[] all = Arrays.copyOf(read, read.length + rest.length);
      System.arraycopy(rest, 0, all, read.length, rest.length);
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException("the rest of the form body could not be read", e);
    }
  }

  private static void decode(String text, Charset charset, Map<String, List<String>> into, FormLimits limits) {
    if (text == null || text.isEmpty()) {
      return;
    }
    for (String pair : text.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), charset);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), charset);
      into.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
      if (into.size() > limits.maxKeys()) {
        throw limits.tooManyKeys();
      }
    }
  }

  private Charset charset(Charset fallback) {
    String encoding = getCharacterEncoding();
    return encoding == null ? fallback : Charset.forName(encoding);
  }
}
