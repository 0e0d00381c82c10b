package com.acme.udf;

import org.apache.spark.sql.api.java.UDF1;

/**
 * Extracts the domain part of an e-mail address.
 * Registered as: spark.udf().register("email_domain", new EmailDomain(), DataTypes.StringType);
 */
public class EmailDomain implements UDF1<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String call(String email) throws Exception {
        if (email == null) {
            return null;
        }
        int at = email.indexOf('@');
        if (at < 0) {
            return null;
        }
        return email.substring(at + 1).toLowerCase();
    }
}
