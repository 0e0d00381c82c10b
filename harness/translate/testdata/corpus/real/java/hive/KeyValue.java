package com.acme.hive.udf;

import org.apache.hadoop.hive.ql.exec.UDF;
import org.apache.hadoop.io.Text;

/** value of "key=value", or the whole string when there is no '='. */
public class KeyValue extends UDF {
    public Text evaluate(Text kv) {
        if (kv == null) {
            return null;
        }
        String s = kv.toString();
        return new Text(s.substring(s.indexOf('=') + 1));
    }
}
