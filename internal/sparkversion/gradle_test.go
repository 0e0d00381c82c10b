package sparkversion

import "testing"

func TestGradle(t *testing.T) {
	const g, k = "build.gradle", "build.gradle.kts"
	runFileCases(t, []fileCase{
		{"groovy literal", g, "dependencies {\n    compileOnly 'org.apache.spark:spark-sql_2.12:3.5.1'\n}\n", []want{{"3.5", "3.5.1", 2, "'org.apache.spark:spark-sql_2.12:3.5.1'"}}},
		{"groovy def interpolated", g, "def sparkVersion = '3.4.1'\ndependencies {\n    implementation \"org.apache.spark:spark-sql_2.12:${sparkVersion}\"\n    implementation \"org.apache.spark:spark-core_2.12:$sparkVersion\"\n}\n",
			[]want{{"3.4", "3.4.1", 1, "def sparkVersion = '3.4.1'"}}},
		{"groovy ext block", g, "ext {\n    sparkVersion = '3.3.2'\n}\ndependencies { implementation \"org.apache.spark:spark-sql_2.12:${sparkVersion}\" }\n",
			[]want{{"3.3", "3.3.2", 2, "sparkVersion = '3.3.2'"}}},
		{"groovy ext dotted", g, "ext.sparkVersion = '3.3.2'\ndependencies { implementation \"org.apache.spark:spark-sql_2.12:${project.ext.sparkVersion}\" }\n",
			[]want{{"3.3", "3.3.2", 1, "ext.sparkVersion = '3.3.2'"}}},
		{"groovy single quotes do not interpolate", g, "def sparkVersion = '3.4.1'\ndependencies { implementation 'org.apache.spark:spark-sql_2.12:$sparkVersion' }\n", nil},
		{"groovy map", g, "def sparkVersion = '3.5.0'\ndependencies {\n  implementation group: 'org.apache.spark', name: 'spark-sql_2.12', version: sparkVersion\n}\n",
			[]want{{"3.5", "3.5.0", 1, "def sparkVersion = '3.5.0'"}}},
		{"groovy map literal", g, "dependencies {\n  implementation group: 'org.apache.spark', name: 'spark-core_2.12', version: '3.5.0'\n}\n",
			[]want{{"3.5", "3.5.0", 2, "group: 'org.apache.spark', name: 'spark-core_2.12', version: '3.5.0'"}}},
		{"kotlin val", k, "val sparkVersion = \"3.5.1\"\ndependencies {\n    implementation(\"org.apache.spark:spark-sql_2.13:$sparkVersion\")\n}\n",
			[]want{{"3.5", "3.5.1", 1, `val sparkVersion = "3.5.1"`}}},
		{"kotlin literal", k, "dependencies {\n    compileOnly(\"org.apache.spark:spark-sql_2.13:4.0.0\")\n}\n", []want{{"4.0", "4.0.0", 2, `"org.apache.spark:spark-sql_2.13:4.0.0"`}}},
		{"kotlin positional", k, "val sparkVersion: String = \"3.2.4\"\ndependencies {\n    compile(\"org.apache.spark\", \"spark-core_$scalaVersion\", sparkVersion)\n}\n",
			[]want{{"3.2", "3.2.4", 1, `val sparkVersion: String = "3.2.4"`}}},
		{"kotlin by project", k, "val sparkVersion: String by project\ndependencies {\n    compile(\"org.apache.spark\", \"spark-core_2.12\", sparkVersion)\n}\n", nil},
		{"kotlin by extra", k, "val sparkVersion by extra(\"3.5.2\")\ndependencies { implementation(\"org.apache.spark:spark-sql_2.12:$sparkVersion\") }\n",
			[]want{{"3.5", "3.5.2", 1, `val sparkVersion by extra("3.5.2")`}}},
		{"kotlin named args", k, "dependencies { implementation(group = \"org.apache.spark\", name = \"spark-sql_2.12\", version = \"3.4.0\") }\n",
			[]want{{"3.4", "3.4.0", 1, `group = "org.apache.spark", name = "spark-sql_2.12", version = "3.4.0"`}}},
		{"catalog", k, "dependencies { implementation(libs.spark.sql) }\n", nil},
		{"commented", g, "// implementation 'org.apache.spark:spark-sql_2.12:3.1.1'\n", nil},
		{"scala interpolated artifact", g, "dependencies { implementation \"org.apache.spark:spark-sql_${scalaBinary}:3.5.1\" }\n", []want{{"3.5", "3.5.1", 1, `"org.apache.spark:spark-sql_${scalaBinary}:3.5.1"`}}},
		{"expression version", k, "dependencies { implementation(\"org.apache.spark:spark-sql_2.12:${sparkVersion}-SNAPSHOT\") }\nval sparkVersion = \"3.5.1\"\n", nil},
		{"classifier", g, "dependencies { testImplementation 'org.apache.spark:spark-core_2.12:3.5.1:tests' }\n", []want{{"3.5", "3.5.1", 1, "'org.apache.spark:spark-core_2.12:3.5.1:tests'"}}},
		{"subproject file name", "spark/spark.gradle", "dependencies { implementation 'org.apache.spark:spark-sql_2.12:3.3.0' }\n", []want{{"3.3", "3.3.0", 1, "'org.apache.spark:spark-sql_2.12:3.3.0'"}}},
	})
}
