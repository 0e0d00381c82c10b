package sparkversion

import "testing"

const pomHead = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
`

func TestPom(t *testing.T) {
	const f = "pom.xml"
	runFileCases(t, []fileCase{
		{"property", f, pomHead + `  <properties>
    <scala.binary.version>2.12</scala.binary.version>
    <spark.version>3.5.1</spark.version>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.apache.spark</groupId>
      <artifactId>spark-sql_${scala.binary.version}</artifactId>
      <version>${spark.version}</version>
      <scope>provided</scope>
    </dependency>
    <dependency>
      <groupId>org.apache.spark</groupId>
      <artifactId>spark-core_2.12</artifactId>
      <version>${spark.version}</version>
    </dependency>
  </dependencies>
</project>
`, []want{{"3.5", "3.5.1", 6, "<spark.version>3.5.1</spark.version>"}}},
		{"literal", f, pomHead + `  <dependencies>
    <dependency>
      <groupId>org.apache.spark</groupId>
      <artifactId>spark-core_2.13</artifactId>
      <version>4.0.0</version>
    </dependency>
  </dependencies>
</project>
`, []want{{"4.0", "4.0.0", 8, "<version>4.0.0</version>"}}},
		{"dependency management", f, pomHead + `  <properties><spark.version>3.4.1</spark.version></properties>
  <dependencyManagement><dependencies>
    <dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>${spark.version}</version></dependency>
  </dependencies></dependencyManagement>
</project>
`, []want{{"3.4", "3.4.1", 4, "<spark.version>3.4.1</spark.version>"}}},
		{"vendor build", f, pomHead + `<dependencies><dependency>
<groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId>
<version>3.3.2-amzn-0</version>
</dependency></dependencies></project>
`, []want{{"3.3", "3.3.2-amzn-0", 6, "<version>3.3.2-amzn-0</version>"}}},
		{"property from parent", f, pomHead + `<dependencies><dependency>
<groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId>
<version>${spark.version}</version>
</dependency></dependencies></project>
`, nil},
		{"property overridden by a profile", f, pomHead + `<properties><spark.version>3.5.1</spark.version></properties>
<profiles><profile><id>spark34</id><properties><spark.version>3.4.1</spark.version></properties></profile></profiles>
<dependencies><dependency>
<groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>${spark.version}</version>
</dependency></dependencies></project>
`, nil},
		{"nested property", f, pomHead + `<properties><spark.major>3.5</spark.major><spark.version>${spark.major}.1</spark.version></properties>
<dependencies><dependency>
<groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>${spark.version}</version>
</dependency></dependencies></project>
`, nil},
		{"version range", f, pomHead + `<dependencies><dependency>
<groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>[3.5.0,3.6.0)</version>
</dependency></dependencies></project>
`, nil},
		{"other group", f, pomHead + `<properties><spark.version>3.5.1</spark.version></properties>
<dependencies>
<dependency><groupId>io.delta</groupId><artifactId>delta-spark_2.12</artifactId><version>3.1.0</version></dependency>
<dependency><groupId>org.apache.spark</groupId><artifactId>kafka-clients</artifactId><version>3.0.0</version></dependency>
</dependencies></project>
`, nil},
		{"exclusion inside", f, pomHead + `<dependencies><dependency>
<groupId>com.example</groupId><artifactId>lib</artifactId><version>1.0</version>
<exclusions><exclusion><groupId>org.apache.spark</groupId><artifactId>spark-core_2.12</artifactId></exclusion></exclusions>
</dependency></dependencies></project>
`, nil},
		{"comment", f, pomHead + `<dependencies>
<!-- <dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>3.1.1</version></dependency> -->
</dependencies></project>
`, nil},
		{"latin1 declared", f, `<?xml version="1.0" encoding="ISO-8859-1"?>
<project><dependencies><dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>3.5.0</version></dependency></dependencies></project>
`, []want{{"3.5", "3.5.0", 2, "<version>3.5.0</version>"}}},
		{"broken xml", f, pomHead + "<dependencies><dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>3.5.0</version></dependency>\n", nil},
	})
}
