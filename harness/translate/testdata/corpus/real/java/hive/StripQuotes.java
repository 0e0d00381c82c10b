package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.Description;
import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

@Description(name = "strip_quotes", value = "_FUNC_(str) - removes surrounding double quotes")
public class StripQuotes extends UDF {
    private final Text result = new Text();

    public Text evaluate(Text s) {
        if (s == null) {
            return null;
        }
        String v = s.toString();
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        result.set(v);
        return result;
    }
}
