package sparkversion

import "testing"

func TestSbt(t *testing.T) {
	const f = "build.sbt"
	runFileCases(t, []fileCase{
		{"literal", f, "scalaVersion := \"2.13.14\"\nlibraryDependencies ++= Seq(\n  \"org.apache.spark\" %% \"spark-core\" % \"3.5.1\", // Spark Core\n  \"org.apache.spark\" %% \"spark-sql\"  % \"3.5.1\" % \"provided\"\n)\n",
			[]want{{"3.5", "3.5.1", 3, `"org.apache.spark" %% "spark-core" % "3.5.1"`}, {"3.5", "3.5.1", 4, `"org.apache.spark" %% "spark-sql"  % "3.5.1"`}}},
		{"val", f, "val sparkVersion = \"3.2.1\"\n\nlibraryDependencies += \"org.apache.spark\" %% \"spark-core\" % sparkVersion % \"provided\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion % Provided\n",
			[]want{{"3.2", "3.2.1", 1, `val sparkVersion = "3.2.1"`}}},
		{"lazy val typed", f, "lazy val sparkVersion: String = \"4.0.0\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" %sparkVersion\n",
			[]want{{"4.0", "4.0.0", 1, `lazy val sparkVersion: String = "4.0.0"`}}},
		{"commented out", f, "//libraryDependencies += \"org.apache.spark\" %% \"spark-core\" % \"3.1.2\"\n/* \"org.apache.spark\" %% \"spark-sql\" % \"3.1.2\" */\nlibraryDependencies += \"org.apache.spark\" %% \"spark-core\" % \"3.0.1\"\n",
			[]want{{"3.0", "3.0.1", 3, `"org.apache.spark" %% "spark-core" % "3.0.1"`}}},
		{"single percent with scala suffix", f, "\"org.apache.spark\" % s\"spark-core_2.11\" % \"2.3.1\"\n", []want{{"2.3", "2.3.1", 1, `"org.apache.spark" % s"spark-core_2.11" % "2.3.1"`}}},
		{"sbt-spark-package setting", f, "sparkVersion := \"2.0.2\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion.value\n",
			[]want{{"2.0", "2.0.2", 1, `sparkVersion := "2.0.2"`}}},
		{"qualified name", "project/Dependencies.scala", "import sbt._\nobject Dependencies {\n  val all = Seq(\"org.apache.spark\" %% \"spark-sql\" % Versions.Spark % Provided)\n}\nobject Versions {\n  val Spark = \"3.5.5\"\n}\n",
			[]want{{"3.5", "3.5.5", 6, `val Spark = "3.5.5"`}}},
		{"ambiguous name", f, "val sparkVersion = \"3.4.1\"\nlazy val other = project.settings { val sparkVersion = \"3.5.1\" }\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion\n", nil},
		{"computed", f, "val sparkVersion = sys.props.getOrElse(\"spark.version\", \"3.5.1\")\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion\n", nil},
		{"concatenated", f, "val sparkVersion = \"3.5\" + \".1\"\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion\n", nil},
		{"interpolated", f, "libraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % s\"$v\"\n", nil},
		{"defined elsewhere", f, "import Dependencies._\nlibraryDependencies += \"org.apache.spark\" %% \"spark-sql\" % sparkVersion\n", nil},
		{"unused val", f, "val sparkVersion = \"3.5.1\"\n", nil},
		{"other group", f, "libraryDependencies += \"io.delta\" %% \"delta-spark\" % \"3.1.0\"\n", nil},
		{"plugins file", "project/plugins.sbt", "addSbtPlugin(\"com.eed3si9n\" % \"sbt-assembly\" % \"2.1.5\")\n", nil},
		{"scala outside project dir", "src/main/scala/Job.scala", "val x = \"org.apache.spark\" %% \"spark-sql\" % \"3.1.1\"\n", nil},
	})
}
