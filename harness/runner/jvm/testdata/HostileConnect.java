package udfx.testdata;

import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.spark.sql.api.java.UDF1;

/** Connects to a port on 127.0.0.1: an original the sandbox must keep off the network. */
public class HostileConnect implements UDF1<Long, String> {
  @Override
  public String call(Long port) throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port.intValue()), 5000);
    }
    return "connected";
  }
}
