package udfx.testdata;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.api.java.UDF1;

/** Writes a file where the caller says, outside any scratch folder: an original the sandbox must stop. */
public class Hostile implements UDF1<String, String> {
  @Override
  public String call(String path) throws Exception {
    Files.writeString(Path.of(path), "escaped\n");
    return "written";
  }
}
